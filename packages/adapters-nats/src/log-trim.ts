import { JetStreamApiCodes, JetStreamApiError, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { retentionKeeps, type LogBounds, type RetentionPolicy } from '@pty-ws/ports';
import { decodeMeta, encodeMark } from './codec';
import { boundsOf, type Head, type LogReads } from './log-reads';
import { seqOf, type Located } from './subject-reader';

const EMPTY = new Uint8Array(0);
/**
 * Trims that lose to an append are judged again with it; past this many, the error is the
 * caller's (the owner trims again on its next round).
 */
const MAX_ATTEMPTS = 5;

/**
 * Retention for one session subject. Purges go by stream sequence (`{filter, seq}`), not
 * `keep: N`, so an append landing meanwhile cannot shift what goes. Trimming everything leaves a
 * mark (a message that is no entry) holding the last sequence, so bounds and the next append
 * still know where the session is.
 */
export class LogTrim {
  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly reads: LogReads,
  ) {}

  /** `marked` is told the mark's place once one holds the head. */
  async trim(
    subject: string,
    policy: RetentionPolicy,
    nowMs: number,
    marked: (head: Head) => void,
  ): Promise<LogBounds> {
    for (let attempt = 1; ; attempt++) {
      const [first, last] = await this.reads.ends(subject);
      if (!first || !last) return boundsOf(first, last);
      const lastSeq = seqOf(last);
      if (last.decoded.kind === 'mark') {
        // Already empty; finish the purge of a trim that stopped between its mark and its purge.
        if (first.streamSeq < last.streamSeq) await this.purgeBelow(subject, last.streamSeq);
        return boundsOf(last, last);
      }
      const kept = retentionKeeps(policy, lastSeq, nowMs);
      if (first.decoded.kind === 'entry' && kept(first.decoded.entry.seq, first.decoded.entry.ts)) {
        return boundsOf(first, last);
      }

      const firstKept = await this.firstKept(subject, first, last, kept);
      if (firstKept) {
        await this.purgeBelow(subject, firstKept.streamSeq);
        return { firstSeq: firstKept.seq, lastSeq };
      }
      try {
        const ack = await this.js.publish(subject, EMPTY, {
          headers: encodeMark(lastSeq),
          expect: { lastSubjectSequence: last.streamSeq },
        });
        marked({ lastSeq, streamSeq: ack.seq });
        await this.purgeBelow(subject, ack.seq);
        return { firstSeq: lastSeq + 1, lastSeq };
      } catch (error) {
        // An append landed after we looked: it is young, so judge again with it.
        if (!isWrongLastSequence(error) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  async purgeAll(subject: string): Promise<void> {
    await this.jsm.streams.purge(this.reads.reader.stream, { filter: subject });
  }

  /**
   * Walks headers only, oldest first, to the first entry to keep; stops there, so the cost is the
   * number of entries dropped, like the memory log. Stopping at the first kept entry (rather than
   * searching by age) keeps what remains gapless even if the owner's clock stepped back.
   */
  private async firstKept(
    subject: string,
    first: Located,
    last: Located,
    kept: (seq: number, ts: number) => boolean,
  ): Promise<{ streamSeq: number; seq: number } | undefined> {
    for await (const m of this.reads.reader.scan(subject, first.streamSeq, { headersOnly: true })) {
      if (m.streamSeq > last.streamSeq) return undefined;
      const meta = decodeMeta(m.headers);
      if (meta.kind === 'entry' && kept(meta.seq, meta.ts)) return { streamSeq: m.streamSeq, seq: meta.seq };
      if (m.streamSeq === last.streamSeq) return undefined;
    }
    return undefined;
  }

  private async purgeBelow(subject: string, streamSeq: number): Promise<void> {
    await this.jsm.streams.purge(this.reads.reader.stream, { filter: subject, seq: streamSeq });
  }
}

export function isWrongLastSequence(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence ||
      error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}
