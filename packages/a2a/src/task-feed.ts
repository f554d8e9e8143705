import type { FrameLog, LogEntry, Unsubscribe } from '@pty-ws/ports';
import { artifactChunkOf, taskUpdateOf, type ArtifactChunk, type TaskUpdate } from './stream-events';

/** What a task feed hands out: status updates and the output chunks between them. */
export type FeedItem = TaskUpdate | ArtifactChunk;

/**
 * The status updates (and output chunks) of one task as an async queue over the session's frame log. Subscribes on
 * construction, so updates appended from then on are kept until read; `close()` (or the abort
 * signal) ends it. `catchUp` adds what was appended after a known sequence, for the window in
 * which a networked subscription is not active yet. Updates come out in sequence order, each once.
 */
export class TaskFeed implements AsyncIterator<FeedItem> {
  private readonly queue: { seq: number; update: FeedItem }[] = [];
  private waiter: ((r: IteratorResult<FeedItem>) => void) | undefined;
  private readonly seen = new Set<number>();
  /** Highest sequence handed out: a catch-up entry older than it comes too late to be in order. */
  private deliveredSeq = 0;
  private closed = false;
  private readonly unsubscribe: Unsubscribe;
  private readonly onAbort = () => this.close();

  constructor(
    log: FrameLog,
    sessionId: string,
    private readonly taskId: string,
    private readonly signal?: AbortSignal,
  ) {
    this.unsubscribe = log.subscribe(sessionId, (entry) => this.add(entry));
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (signal?.aborted) this.close();
  }

  /** Entries appended after `afterSeq`, read from the log (see the class comment). */
  async catchUp(log: FrameLog, sessionId: string, afterSeq: number): Promise<void> {
    for (const entry of await log.read(sessionId, afterSeq)) this.add(entry);
  }

  private add(entry: LogEntry): void {
    if (this.closed || entry.seq <= this.deliveredSeq) return;
    const update = taskUpdateOf(entry, this.taskId) ?? artifactChunkOf(entry, this.taskId);
    // Only this task's updates are remembered: the session's output does not grow the set.
    if (!update || this.seen.has(entry.seq)) return;
    this.seen.add(entry.seq);
    const w = this.waiter;
    if (w) {
      this.waiter = undefined;
      this.deliveredSeq = entry.seq;
      w({ value: update, done: false });
      return;
    }
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1]!.seq > entry.seq) i--;
    this.queue.splice(i, 0, { seq: entry.seq, update });
  }

  next(): Promise<IteratorResult<FeedItem>> {
    const head = this.queue.shift();
    if (head) {
      this.deliveredSeq = head.seq;
      return Promise.resolve({ value: head.update, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiter = resolve));
  }

  async return(): Promise<IteratorResult<FeedItem>> {
    this.close();
    return { value: undefined, done: true };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.signal?.removeEventListener('abort', this.onAbort);
    const w = this.waiter;
    this.waiter = undefined;
    w?.({ value: undefined, done: true });
  }
}
