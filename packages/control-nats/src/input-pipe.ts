import { BindingError } from '@pty-ws/protocol';

/** Sends one batch and resolves once the owner wrote it to the PTY. */
export type SendBatch = (data: Uint8Array) => Promise<void>;

/** A send that certainly reached nobody (NATS "no responders"): safe to send again. */
export class NotDeliveredError extends Error {
  override readonly name = 'NotDeliveredError';
}

export interface InputPipeOptions {
  /** How long a batch is offered to an owner that is not subscribed (agent reconnecting). */
  retryWindowMs: number;
  /** Largest batch; a flood is sent as several requests, still in order. */
  maxBatchBytes: number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Keystrokes of one client for one session, acknowledged and in order.
 *
 * Core NATS publishes are lost without a trace while the owner agent is not subscribed (it
 * reconnects to NATS later than the edge): a keystroke typed then would vanish. So every batch
 * is a request the agent answers after writing it; "no responders" means nobody got it, and the
 * same bytes are offered again until the agent is back. A timeout is not retried: the agent may
 * have written the bytes, and typing them twice is worse than reporting the error.
 *
 * One request is in flight at a time; what is typed meanwhile is joined into the next batch, so
 * a single keystroke costs one round trip and a flood costs few.
 */
export class InputPipe {
  private queued: Uint8Array[] = [];
  private queuedBytes = 0;
  private waiters: Waiter[] = [];
  private pumping = false;

  constructor(
    private readonly send: SendBatch,
    private readonly opts: InputPipeOptions,
    private readonly onIdle: () => void = () => {},
  ) {}

  push(data: Uint8Array): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push(data);
      this.queuedBytes += data.byteLength;
      this.waiters.push({ resolve, reject });
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queued.length > 0) {
        const { batch, waiters } = this.takeBatch();
        try {
          await this.sendWithRetry(batch);
          for (const w of waiters) w.resolve();
        } catch (err) {
          const e = err instanceof Error ? err : new Error(String(err));
          for (const w of waiters) w.reject(e);
        }
      }
    } finally {
      this.pumping = false;
      this.onIdle();
    }
  }

  /** Whole chunks up to maxBatchBytes (at least one), with the waiters they settle. */
  private takeBatch(): { batch: Uint8Array; waiters: Waiter[] } {
    let count = 0;
    let bytes = 0;
    while (count < this.queued.length) {
      const size = (this.queued[count] as Uint8Array).byteLength;
      if (count > 0 && bytes + size > this.opts.maxBatchBytes) break;
      bytes += size;
      count++;
    }
    const chunks = this.queued.splice(0, count);
    const waiters = this.waiters.splice(0, count);
    this.queuedBytes -= bytes;
    const batch = chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, bytes);
    return { batch, waiters };
  }

  private async sendWithRetry(batch: Uint8Array): Promise<void> {
    const deadline = Date.now() + this.opts.retryWindowMs;
    for (let delay = 25; ; delay = Math.min(delay * 2, 500)) {
      try {
        await this.send(batch);
        return;
      } catch (err) {
        if (!(err instanceof NotDeliveredError)) throw err;
        if (Date.now() + delay > deadline) {
          throw new BindingError('INTERNAL', `session owner unreachable (input): ${err.message}`);
        }
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  get idle(): boolean {
    return !this.pumping && this.queued.length === 0;
  }

  /** Bytes waiting behind the request in flight. */
  get backlogBytes(): number {
    return this.queuedBytes;
  }
}
