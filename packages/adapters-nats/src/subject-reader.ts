import type { JetStreamClient } from '@nats-io/jetstream';
import type { MsgHdrs } from '@nats-io/transport-node';
import type { Decoded } from './codec';
import type { Gets } from './direct-gets';

/** A message of a session's subject, with where the stream stored it. */
export interface Located {
  streamSeq: number;
  decoded: Decoded;
}

export interface RawMessage {
  streamSeq: number;
  headers: MsgHdrs | undefined;
  data: Uint8Array;
}

/** The session sequence a message stands at: an entry's own, or the last sequence a mark remembers. */
export function seqOf(m: Located): number {
  return m.decoded.kind === 'entry' ? m.decoded.entry.seq : m.decoded.seq;
}

/** Messages per pull request: bounded so one read of a long log does not buffer it all at once. */
const FETCH_BATCH = 256;
/** How long a pull waits for messages it expected but a concurrent purge removed (server minimum: 1 s). */
const FETCH_EXPIRES_MS = 1000;
/** Ordered consumers are ephemeral; if our delete is lost the server drops them after this. */
const CONSUMER_INACTIVE_MS = 30_000;

/**
 * Reads one stream subject by subject. Point reads and ranges use direct get (server 2.9+,
 * `allow_direct`; range-read.ts); only `trim`'s walk over old headers uses an ordered consumer.
 *
 * Deliberately NOT used, because the deployment target is nats-server 2.9.10:
 * - multi-subject consumer filters (`filter_subjects`, 2.10): on 2.9 the server ignores the
 *   plural field and the consumer silently gets NO filter; the ordered consumer is given one
 *   subject as a string, which the client sends as the singular `filter_subject`;
 * - batch direct get (`direct.getBatch`, 2.11; 2.9 answers "batch direct require server 2.11.0"),
 *   which would read a range in one request: 2.9 takes one get per entry, pipelined.
 */
export class SubjectReader {
  constructor(
    private readonly js: JetStreamClient,
    readonly gets: Gets,
  ) {}

  get stream(): string {
    return this.gets.stream;
  }

  last(subject: string): Promise<Located | undefined> {
    return this.gets.get({ last_by_subj: subject });
  }

  /** The subject's first message stored at or after `streamSeq`. */
  firstAtOrAfter(subject: string, streamSeq = 0): Promise<Located | undefined> {
    return this.gets.get(streamSeq > 0 ? { seq: streamSeq, next_by_subj: subject } : { next_by_subj: subject });
  }

  /**
   * The entry with session sequence `seq`, given the subject's first and last messages around it
   * (`seqOf(first) <= seq <= seqOf(last)`, `last` an entry). The subject holds consecutive
   * sequences, so an entry k sequences away is at least k stream positions away: that brackets
   * the search (exact when only this session wrote in between), and direct gets with
   * `next_by_subj` bisect the rest. If a concurrent trim removed `seq`, returns the first entry
   * after it (or undefined).
   */
  async locate(subject: string, seq: number, first: Located, last: Located): Promise<Located | undefined> {
    if (first.decoded.kind === 'entry' && first.decoded.entry.seq === seq) return first;
    if (last.decoded.kind === 'entry' && last.decoded.entry.seq === seq) return last;
    let lo = lowerBound(first, seq);
    let hi = upperBound(last, seq);
    let best: Located | undefined = last;
    while (lo <= hi) {
      const mid = lo + Math.floor((hi - lo) / 2);
      const m = await this.firstAtOrAfter(subject, mid);
      if (!m) return undefined;
      if (m.decoded.kind === 'entry' && m.decoded.entry.seq === seq) return m;
      if (m.decoded.kind === 'entry' && m.decoded.entry.seq > seq) {
        if (!best || m.streamSeq < best.streamSeq) best = m;
        // Nothing of the subject lies in [mid, m), so the entry is below mid.
        hi = Math.min(mid - 1, upperBound(m, seq));
      } else if (m.decoded.kind === 'mark' && m.decoded.seq >= seq) {
        hi = Math.min(mid - 1, upperBound(m, seq));
      } else {
        lo = Math.max(mid + 1, lowerBound(m, seq));
      }
    }
    // The bracket closed without a hit: `seq` was trimmed while we searched.
    return best && seqOf(best) > seq ? best : undefined;
  }

  /**
   * The subject's messages from `fromStreamSeq` on, oldest first, at most `max`. Stops at what the
   * consumer counted as pending when it was created, so it never waits for future appends.
   */
  async *scan(
    subject: string,
    fromStreamSeq: number,
    opts: { max?: number; headersOnly?: boolean } = {},
  ): AsyncGenerator<RawMessage> {
    const consumer = await this.js.consumers.get(this.stream, {
      // A string, not an array: sent as the singular filter_subject that 2.9 understands.
      filter_subjects: subject,
      opt_start_seq: fromStreamSeq,
      headers_only: opts.headersOnly === true,
      inactive_threshold: CONSUMER_INACTIVE_MS,
    });
    try {
      let pending = (await consumer.info(true)).num_pending;
      let budget = opts.max ?? Number.POSITIVE_INFINITY;
      while (pending > 0 && budget > 0) {
        const want = Math.min(pending, budget, FETCH_BATCH);
        const batch = await consumer.fetch({ max_messages: want, expires: FETCH_EXPIRES_MS });
        let got = 0;
        for await (const m of batch) {
          got++;
          yield { streamSeq: m.seq, headers: m.headers, data: m.data };
        }
        // Fewer than pending: a purge took them meanwhile, and nothing older can come after.
        if (got < want) return;
        pending -= got;
        budget -= got;
      }
    } finally {
      // Not awaited: the read is done either way, and the server reaps the consumer if this is lost.
      consumer.delete().catch(() => {});
    }
  }
}

/** Lowest stream position the entry `seq` can have, knowing message `m` (which precedes it). */
export function lowerBound(m: Located, seq: number): number {
  // An entry e < seq is followed by entries e+1..seq; a mark of m < seq by entries m+1..seq.
  return m.streamSeq + (seq - seqOf(m));
}

/** Highest stream position the entry `seq` can have, knowing message `m` (which follows it). */
export function upperBound(m: Located, seq: number): number {
  // Entries seq..e-1 precede an entry e; entries seq..m precede a mark of m.
  const between = m.decoded.kind === 'entry' ? m.decoded.entry.seq - seq : m.decoded.seq - seq + 1;
  return m.streamSeq - between;
}
