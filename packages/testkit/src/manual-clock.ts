import type { Clock, ClockTimer } from '@pty-ws/ports';

interface Scheduled {
  at: number;
  seq: number;
  fn: () => void;
  every: number | undefined;
  canceled: boolean;
}

/**
 * A clock that moves only when the test says so: `advance(ms)` runs every timer that falls due,
 * in time order (same time: in the order they were set), each seeing `now()` at its own due time.
 */
export class ManualClock implements Clock {
  private wall: number;
  private mono = 0;
  private seq = 0;
  private readonly pending: Scheduled[] = [];

  constructor(startWallMs = Date.UTC(2026, 0, 1)) {
    this.wall = startWallMs;
  }

  now(): number {
    return this.wall + this.mono;
  }

  monotonic(): number {
    return this.mono;
  }

  setTimeout(fn: () => void, ms: number): ClockTimer {
    return this.schedule(fn, ms, undefined);
  }

  setInterval(fn: () => void, ms: number): ClockTimer {
    return this.schedule(fn, ms, Math.max(1, ms));
  }

  /** Moves both clocks forward, firing what falls due on the way. */
  advance(ms: number): void {
    const target = this.mono + ms;
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.mono = next.at;
      if (next.every !== undefined) next.at += next.every;
      else next.canceled = true;
      next.fn();
    }
    this.mono = target;
  }

  /** Timers still waiting (canceled and fired one-shots excluded). */
  get pendingCount(): number {
    return this.pending.filter((s) => !s.canceled).length;
  }

  private schedule(fn: () => void, ms: number, every: number | undefined): ClockTimer {
    const s: Scheduled = { at: this.mono + Math.max(0, ms), seq: this.seq++, fn, every, canceled: false };
    this.pending.push(s);
    const timer: ClockTimer = {
      cancel: () => {
        s.canceled = true;
      },
      unref: () => timer,
    };
    return timer;
  }

  private nextDue(limit: number): Scheduled | undefined {
    let best: Scheduled | undefined;
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const s = this.pending[i]!;
      if (s.canceled) {
        this.pending.splice(i, 1);
        continue;
      }
      if (s.at > limit) continue;
      if (!best || s.at < best.at || (s.at === best.at && s.seq < best.seq)) best = s;
    }
    return best;
  }
}
