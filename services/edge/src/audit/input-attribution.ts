import { systemClock, type Clock, type ClockTimer, type Disposable } from '@pty-ws/ports';

export interface InputAttributionOptions<K> {
  report: (key: K, counts: { bytes: number; frames: number; from: number; to: number }) => void;
  /** One report per key per window at most (default 1 s). */
  windowMs?: number;
  clock?: Clock;
}

/** Input counted for one connection since the last report. */
interface Pending {
  bytes: number;
  frames: number;
  firstAt: number;
}

/**
 * Who typed how much, never what (issue "Audit"): input bytes are summed per connection and
 * reported once per window, so a paste of a megabyte or a day of typing costs one audit event per
 * connection per second at most, and nothing on the keystroke path but an addition.
 */
export class InputAttribution<K> implements Disposable {
  private pending = new Map<K, Pending>();
  private readonly timer: ClockTimer;
  private readonly report: InputAttributionOptions<K>['report'];
  private readonly clock: Clock;

  constructor(opts: InputAttributionOptions<K>) {
    this.report = opts.report;
    this.clock = opts.clock ?? systemClock;
    this.timer = this.clock.setInterval(() => this.flushAll(), opts.windowMs ?? 1000).unref();
  }

  add(key: K, bytes: number): void {
    const p = this.pending.get(key);
    if (p) {
      p.bytes += bytes;
      p.frames += 1;
    } else {
      this.pending.set(key, { bytes, frames: 1, firstAt: this.clock.now() });
    }
  }

  /** Reports one key now (before its detach, so input precedes detach in the trail). */
  flush(key: K): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    this.report(key, { bytes: p.bytes, frames: p.frames, from: p.firstAt, to: this.clock.now() });
  }

  flushAll(): void {
    const all = this.pending;
    this.pending = new Map();
    const now = this.clock.now();
    for (const [key, p] of all) this.report(key, { bytes: p.bytes, frames: p.frames, from: p.firstAt, to: now });
  }

  dispose(): void {
    this.timer.cancel();
    this.flushAll();
  }
}
