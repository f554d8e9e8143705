/**
 * Time as the client sees it: every timeout, backoff pause and duration goes through a `Clock`, so
 * tests move time forward instead of sleeping past a window. The shape is the services' `Clock`
 * port (@pty-ws/ports) without what only Node has (`unref`, `setInterval`), so the browser build
 * needs no Node types and a port clock (or the testkit's ManualClock) can be passed as it is.
 */
export interface Clock {
  /** Wall-clock milliseconds since the epoch. */
  now(): number;
  /** Monotonic milliseconds: durations, immune to wall-clock jumps. */
  monotonic(): number;
  setTimeout(fn: () => void, ms: number): ClockTimer;
}

/** A scheduled callback. */
export interface ClockTimer {
  cancel(): void;
}

interface TimerGlobals {
  setTimeout(cb: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  performance?: { now(): number };
}

/**
 * The runtime's clocks and timers (browser or Node), looked up at call time so fake timers
 * installed after this module loaded still apply.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => (globalThis as unknown as TimerGlobals).performance?.now() ?? Date.now(),
  setTimeout: (fn, ms) => {
    const g = globalThis as unknown as TimerGlobals;
    const handle = g.setTimeout(fn, ms);
    return { cancel: () => g.clearTimeout(handle) };
  },
};

/** Milliseconds left of `timeoutMs` since `startedAt` (a `clock.monotonic()` reading), at least 1. */
export function remainingMs(clock: Clock, timeoutMs: number, startedAt: number): number {
  return Math.max(1, timeoutMs - (clock.monotonic() - startedAt));
}
