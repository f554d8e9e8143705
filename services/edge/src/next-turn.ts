/**
 * A turn of the event loop, not a span of time: what runs once pending I/O was handled (a uWS
 * callback has returned, a socket was read). The Clock port schedules time; these only order work
 * against I/O, so services/edge/src/ws reaches setImmediate through here alone (eslint.config.mjs).
 */

/** Runs `fn` on a later turn, after pending I/O. */
export function afterIo(fn: () => void): void {
  setImmediate(fn);
}

/** Resolves on a later turn, after pending I/O. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
