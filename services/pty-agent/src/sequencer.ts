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
    private readonly afterAppend: () => void = () => {},
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
    this.enqueue(() => entry.then((e) => this.log.append(this.sessionId, e)));
    return seq;
  }

  /** Resolves once every entry sequenced so far is in the log. */
  flushed(): Promise<void> {
    return this.chain;
  }

  private append(build: (seq: number) => LogEntry): number {
    const seq = ++this.last;
    const entry = build(seq);
    this.enqueue(() => this.log.append(this.sessionId, entry));
    return seq;
  }

  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(() => {
      if (this.failure) return;
      return step().then(this.afterAppend, (err: unknown) => {
        this.failure = err instanceof Error ? err : new Error(String(err));
        this.onFailure(this.failure);
      });
    });
  }
}
