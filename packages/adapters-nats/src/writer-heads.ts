import type { Head, LogReads } from './log-reads';

/** Fresh heads read while one is behind what this writer stored, before it is believed (a remove elsewhere). */
const STALE_HEAD_READS = 5;
const STALE_HEAD_WAIT_MS = 100;

/**
 * The writer's fresh heads, whose answer can end a session: a head the entry does not follow is a
 * SequenceConflictError. They come from the stream's leader (LogReads.head). A head behind what
 * this process already saw stored is no other writer's doing (another writer moves the head past
 * it, never back): it is read again for a while, as a stale answer; only one that stays behind
 * (the log was removed elsewhere) is believed.
 */
export class WriterHeads {
  /** The highest sequence this process saw stored, per session. */
  private readonly storedUpTo = new Map<string, number>();

  constructor(private readonly reads: LogReads) {}

  stored(sessionId: string, seq: number): void {
    if (seq > (this.storedUpTo.get(sessionId) ?? 0)) this.storedUpTo.set(sessionId, seq);
  }

  forget(sessionId: string): void {
    this.storedUpTo.delete(sessionId);
  }

  /** The head as the log has it now, never behind `seq - 1` once this process saw that stored. */
  async fresh(sessionId: string, subject: string, seq: number): Promise<Head> {
    const stored = Math.min(this.storedUpTo.get(sessionId) ?? 0, seq - 1);
    for (let read = 1; ; read++) {
      const head = await this.reads.head(subject);
      if (head.lastSeq >= stored || read >= STALE_HEAD_READS) return head;
      await new Promise((resolve) => setTimeout(resolve, STALE_HEAD_WAIT_MS));
    }
  }
}
