/**
 * Time as the services see it. Injected wherever timing is logic (rate buckets, expiry, liveness
 * windows, keyframe cadence) so tests move time forward instead of sleeping past a window.
 */
export interface Clock {
  /** Wall-clock milliseconds since the epoch: timestamps that leave the process, token expiry. */
  now(): number;
  /** Monotonic milliseconds: durations and rates, immune to wall-clock jumps. */
  monotonic(): number;
  setTimeout(fn: () => void, ms: number): ClockTimer;
  setInterval(fn: () => void, ms: number): ClockTimer;
}

/** A scheduled callback. `unref` lets the process exit while it is pending (a no-op when manual). */
export interface ClockTimer {
  cancel(): void;
  unref(): ClockTimer;
}

function nodeTimer(handle: NodeJS.Timeout, clear: (h: NodeJS.Timeout) => void): ClockTimer {
  const timer: ClockTimer = {
    cancel: () => clear(handle),
    unref: () => {
      handle.unref();
      return timer;
    },
  };
  return timer;
}

/** The process's clocks and Node's timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (fn, ms) => nodeTimer(setTimeout(fn, ms), clearTimeout),
  setInterval: (fn, ms) => nodeTimer(setInterval(fn, ms), clearInterval),
};

/**
 * The one teardown name for in-process parts (timers, subscriptions, workers, watchers): they
 * let go of what they hold; a second call does nothing. Adapters that hold a connection close it
 * (`close()`, as their drivers say), and a running service's handle is stopped (`stop()`).
 */
export interface Disposable {
  dispose(): void | Promise<void>;
}
