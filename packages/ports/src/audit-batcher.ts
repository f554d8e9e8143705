import type { AuditEvent } from './audit';

export interface AuditBatcherOptions {
  /** Writes one batch, in order; a rejection keeps the batch queued and retries it later. */
  write(batch: readonly AuditEvent[]): Promise<void>;
  /** Events per write; default 500. */
  maxBatch?: number;
  /** How long a recorded event may wait for more to join its batch; default 200 ms. */
  flushIntervalMs?: number;
  /** Queue bound: past it the oldest events are dropped; default 100 000. */
  maxQueued?: number;
  /** How long after a failed write the next is tried; default 1000 ms. */
  retryMs?: number;
  /** A write failed (the batch stays queued) or events were dropped. Called at most once per write. */
  onProblem?(problem: { error?: Error; dropped: number }): void;
}

/**
 * The asynchronous, batched half of an AuditLog: `record` appends to a bounded in-memory queue and
 * returns; one write runs at a time, so batches land in recorded order. Shared by the sinks so
 * they differ only in how a batch is written.
 */
export class AuditBatcher {
  private queue: AuditEvent[] = [];
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private droppedSinceReport = 0;
  private readonly maxBatch: number;
  private readonly flushIntervalMs: number;
  private readonly maxQueued: number;
  private readonly retryMs: number;
  /** Dropped because the queue was full, since start. */
  dropped = 0;

  constructor(private readonly opts: AuditBatcherOptions) {
    this.maxBatch = opts.maxBatch ?? 500;
    this.flushIntervalMs = opts.flushIntervalMs ?? 200;
    this.maxQueued = opts.maxQueued ?? 100_000;
    this.retryMs = opts.retryMs ?? 1000;
  }

  get queued(): number {
    return this.queue.length;
  }

  record(event: AuditEvent): void {
    this.queue.push(event);
    const over = this.queue.length - this.maxQueued;
    if (over > 0) {
      // Drop in a chunk (a tenth of the bound) so a sustained overload does not shift per event.
      const n = Math.max(over, Math.ceil(this.maxQueued / 10));
      this.queue.splice(0, n);
      this.dropped += n;
      this.droppedSinceReport += n;
    }
    if (this.queue.length >= this.maxBatch) this.start();
    else this.schedule(this.flushIntervalMs);
  }

  /** Resolves once everything recorded so far was written, or a write failed (it will be retried). */
  flush(): Promise<void> {
    return this.start();
  }

  private schedule(ms: number): void {
    if (this.timer || this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.start();
    }, ms);
    this.timer.unref();
  }

  private start(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        await this.opts.write(batch);
        this.report();
      } catch (err) {
        this.queue.unshift(...batch);
        this.report(err as Error);
        // Retried later; a full queue keeps dropping the oldest meanwhile. The retry is the
        // batcher's timer, so records arriving meanwhile wait for it instead of writing sooner.
        this.timer = setTimeout(() => {
          this.timer = undefined;
          void this.start();
        }, this.retryMs);
        this.timer.unref();
        return;
      }
    }
  }

  private report(error?: Error): void {
    if (!error && this.droppedSinceReport === 0) return;
    const dropped = this.droppedSinceReport;
    this.droppedSinceReport = 0;
    this.opts.onProblem?.(error ? { error, dropped } : { dropped });
  }
}
