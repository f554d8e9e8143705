/**
 * The printing programs of the load scenarios, shared by the k6 scripts (loadtest/k6/lib.ts
 * re-exports this file) and the Node driver: plain ES2020, no imports, so k6 can load it.
 */

/**
 * `sh -c` text that runs `body` every `intervalS` seconds, `totalS` seconds long, then exits: the
 * session closes on its own even when the run's clean-up never happens (the driver killed).
 */
export function printFor(body: string, intervalS: number, totalS: number): string {
  const times = Math.ceil(totalS / intervalS);
  return `i=0; while [ $i -lt ${times} ]; do ${body}; sleep ${intervalS}; i=$((i+1)); done`;
}
