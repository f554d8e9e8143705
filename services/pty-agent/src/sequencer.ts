import { newId, type OutputStream, type ServiceParameters } from '@pty-ws/protocol';
import type { FrameLog, LogEntry } from '@pty-ws/ports';

/**
 * The single writer of one session's frame log. Sequence numbers are assigned synchronously (so
 * the headless terminal and the log agree on what a sequence means) and appends are chained, so
 * the log receives entries in sequence order even when the log is remote and asynchronous.
 */
export class Sequencer {
  private last: number;
  private chain: Promise<void> = Promise.resolve();
  private failure: Error | undefined;

  constructor(
    private readonly sessionId: string,
    private readonly log: FrameLog,
    lastSeq: number,
    private readonly onFailure: (err: Error) => void,
    /** Told each entry once it is in the log, in sequence order (trim, transcript archive). */
    private readonly afterAppend: (entry: LogEntry) => void = () => {},
    private readonly onRetry: (err: Error) => void = () => {},
  ) {
    this.last = lastSeq;
  }

  get lastSeq(): number {
    return this.last;
  }

  output(stream: OutputStream, data: Uint8Array): number {
    return this.append((seq) => ({ type: 'output', seq, id: newId(), ts: Date.now(), stream, data }));
  }

  event(
    op: string,
    payload: Record<string, unknown>,
    extra: { taskId?: string; serviceParameters?: ServiceParameters } = {},
  ): number {
    return this.append((seq) => ({ type: 'event', seq, id: newId(), ts: Date.now(), op, payload, ...extra }));
  }

  /**
   * Reserves the next sequence for an entry whose content is computed asynchronously (a
   * cadence Keyframe): later entries queue behind it, so nothing can land between the
   * snapshot's anchor and the keyframe itself.
   */
  reserve(build: (seq: number) => Promise<LogEntry>): number {
    const seq = ++this.last;
    const entry = build(seq);
    this.enqueue(seq, () => entry);
    return seq;
  }

  /** Resolves once every entry sequenced so far is in the log. */
  flushed(): Promise<void> {
    return this.chain;
  }

  private append(build: (seq: number) => LogEntry): number {
    const seq = ++this.last;
    const entry = build(seq);
    this.enqueue(seq, () => entry);
    return seq;
  }

  /**
   * Appends in order. A transient failure (a NATS outage, a timed-out ack) is retried with backoff
   * for up to RETRY_WINDOW_MS, and later entries wait behind it, so order and gaplessness hold. An
   * attempt whose ack was lost may have been stored: before retrying we look at the log's last
   * sequence — this sequencer is the session's only writer, so a stored `seq` is this entry.
   * Only a sequence conflict (another writer) or an outage longer than the window is final.
   */
  private enqueue(seq: number, entryOf: () => LogEntry | Promise<LogEntry>): void {
    this.chain = this.chain.then(async () => {
      if (this.failure) return;
      // Building the entry (a keyframe's snapshot) is not I/O: a failure there is final, not an
      // outage to retry for the whole window while every later frame waits behind it.
      let entry: LogEntry;
      try {
        entry = await entryOf();
      } catch (err) {
        this.failure = err instanceof Error ? err : new Error(String(err));
        this.onFailure(this.failure);
        return;
      }
      const deadline = Date.now() + RETRY_WINDOW_MS;
      for (let delay = 50, attempt = 0; ; delay = Math.min(delay * 2, 2000), attempt++) {
        try {
          if (attempt > 0 && (await this.log.bounds(this.sessionId)).lastSeq >= seq) {
            this.afterAppend(entry);
            return;
          }
          await this.log.append(this.sessionId, entry);
          this.afterAppend(entry);
          return;
        } catch (err) {
          const e = err instanceof Error ? err : new Error(String(err));
          if (e.name === 'SequenceConflictError' || Date.now() + delay > deadline) {
            this.failure = e;
            this.onFailure(e);
            return;
          }
          this.onRetry(e);
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    });
  }
}

/** How long an append is retried before the session's log is given up. */
const RETRY_WINDOW_MS = 120_000;
