/**
 * The longest run of `byte` in `bytes`: a flood of one character (`head -c N /dev/zero | tr '\0' x`)
 * arrived whole, in order, whatever else the terminal echoed around it, when the run is N long.
 */
export function longestRunOf(bytes: Uint8Array, byte: number): number {
  let best = 0;
  let run = 0;
  for (let i = 0; i < bytes.length; i++) {
    run = bytes[i] === byte ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}
