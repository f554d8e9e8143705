import type { LogBounds, LogEntry, Disposable } from '@pty-ws/ports';

export interface LiveFeedSource {
  /** Entries in `(afterSeq, toSeq]` from the log, oldest first. */
  read(afterSeq: number, toSeq: number): Promise<LogEntry[]>;
  bounds(): Promise<LogBounds>;
  deliver(entry: LogEntry): void;
  report(error: unknown): void;
}

/** How long an early copy may wait for the stored copies before it before they count as lost. */
const EARLY_STALE_MS = 500;
/** How long a fill waits for the log to store what it misses; doubles up to the max. */
const FILL_WAIT_MS = 20;
const FILL_WAIT_MAX_MS = 2000;

/**
 * One subscriber's delivery, merged from two feeds by sequence: the stream's republish of every
 * stored entry (in store order, complete unless the connection dropped) and the writer's early
 * copies of small entries (sent as they are appended, ahead of the store: what makes an echo
 * quick). Whichever copy of the next sequence comes first goes out, the other is a repeat. An
 * early copy past the next sequence waits for the stored copies before it. A hole in the stored
 * feed itself (a reconnect), or an early copy waiting too long, starts a fill from the log that
 * waits for the log to hold the missing entries — it never takes "not stored yet" for "trimmed".
 */
export class LiveFeed implements Disposable {
  private last: number | undefined;
  /** Copies past a hole, by sequence; released in order as the hole closes. */
  private held: LogEntry[] = [];
  private filling = false;
  private stopped = false;
  private wake: (() => void) | undefined;
  private staleCheck: NodeJS.Timeout | undefined;

  constructor(private readonly source: LiveFeedSource) {}

  /** The republished copy of a stored entry. */
  stored(entry: LogEntry): void {
    if (!this.accept(entry)) return;
    this.hold(entry);
    this.fill();
  }

  /** The writer's early copy of a small entry, possibly not stored yet. */
  early(entry: LogEntry): void {
    if (!this.accept(entry)) return;
    this.hold(entry);
    this.staleCheck ??= setTimeout(() => {
      this.staleCheck = undefined;
      if (!this.stopped && this.held.length > 0) this.fill();
    }, EARLY_STALE_MS);
  }

  dispose(): void {
    this.stopped = true;
    clearTimeout(this.staleCheck);
    this.wake?.();
  }

  /** Delivers the entry if it is the next one; false when it has to be held. */
  private accept(entry: LogEntry): boolean {
    if (this.stopped || (this.last !== undefined && entry.seq <= this.last)) return false;
    this.wake?.();
    if (this.filling || (this.last !== undefined && entry.seq !== this.last + 1)) return true;
    this.emit(entry);
    this.release();
    return false;
  }

  private hold(entry: LogEntry): void {
    const i = this.held.findIndex((e) => e.seq >= entry.seq);
    if (i === -1) this.held.push(entry);
    else if (this.held[i]!.seq !== entry.seq) this.held.splice(i, 0, entry);
  }

  /** Delivers held entries that now follow on; stops at the next hole. */
  private release(): void {
    while (this.held.length > 0) {
      const e = this.held[0]!;
      if (this.last !== undefined && e.seq > this.last + 1) return;
      this.held.shift();
      if (this.last === undefined || e.seq > this.last) this.emit(e);
    }
  }

  private emit(entry: LogEntry): void {
    this.last = entry.seq;
    try {
      this.source.deliver(entry);
    } catch (error) {
      // One broken consumer must not cost the others (or the connection) their entries.
      this.source.report(error);
    }
  }

  private fill(): void {
    if (this.filling) return;
    this.filling = true;
    void this.fillLoop().finally(() => {
      this.filling = false;
      this.release();
    });
  }

  private async fillLoop(): Promise<void> {
    let wait = FILL_WAIT_MS;
    for (;;) {
      this.release();
      if (this.stopped || this.last === undefined || this.held.length === 0) return;
      const target = this.held[0]!.seq - 1;
      const before = this.last;
      try {
        const upTo = Math.min(target, (await this.source.bounds()).lastSeq);
        if (upTo > this.last) {
          for (const e of await this.source.read(this.last, upTo)) {
            if (this.stopped) return;
            // The log is gapless: a first entry past the hole means the hole was trimmed meanwhile.
            if (e.seq > this.last) this.emit(e);
          }
        }
      } catch (error) {
        this.source.report(error);
      }
      if (this.last === before) {
        await this.nextArrival(wait);
        wait = Math.min(wait * 2, FILL_WAIT_MAX_MS);
      } else {
        wait = FILL_WAIT_MS;
      }
    }
  }

  /** Resolves on the next copy from either feed, or after `timeoutMs`. */
  private nextArrival(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.wake = done;
    });
  }
}
