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
export class InputAttribution<K> {
  private pending = new Map<K, Pending>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly report: (key: K, counts: { bytes: number; frames: number; from: number; to: number }) => void,
    windowMs = 1000,
  ) {
    this.timer = setInterval(() => this.flushAll(), windowMs);
    this.timer.unref();
  }

  add(key: K, bytes: number): void {
    const p = this.pending.get(key);
    if (p) {
      p.bytes += bytes;
      p.frames += 1;
    } else {
      this.pending.set(key, { bytes, frames: 1, firstAt: Date.now() });
    }
  }

  /** Reports one key now (before its detach, so input precedes detach in the trail). */
  flush(key: K): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    this.report(key, { bytes: p.bytes, frames: p.frames, from: p.firstAt, to: Date.now() });
  }

  flushAll(): void {
    const all = this.pending;
    this.pending = new Map();
    const now = Date.now();
    for (const [key, p] of all) this.report(key, { bytes: p.bytes, frames: p.frames, from: p.firstAt, to: now });
  }

  stop(): void {
    clearInterval(this.timer);
    this.flushAll();
  }
}
