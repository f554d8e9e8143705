import type { LogBounds, LogEntry } from '@pty-ws/ports';
import type { EntryCache } from './entry-cache';
import { contiguous, readRange } from './range-read';
import { seqOf, type Located, type SubjectReader } from './subject-reader';

/** A session's newest message as the log last saw it: the last sequence and where it is stored. */
export interface Head {
  lastSeq: number;
  streamSeq: number;
}

/**
 * The frame log's reads of one session subject, by get (no consumer, so nothing to clean up):
 * bounds from the subject's first and last messages, the start of a range by bisection
 * (SubjectReader.locate), the rest pipelined (range-read.ts).
 *
 * Two readers: `reader` by direct get, which any replica of the stream answers (fast, and no
 * request to the JetStream API, which a cluster that just lost its meta leader answers only once
 * it has elected another), and `leader`, answered by the stream's leader only (leader-gets.ts;
 * the same reader on a single-replica stream). A follower answers from what it has applied so
 * far, so whatever must not be stale comes from the leader: the writer's head (a head behind the
 * log would refuse the writer's next entry as a conflict and end the session) and the bounds
 * (a reader takes an entry missing below `lastSeq` for trimmed). Ranges stay direct gets; a range
 * that comes back short of what it asked for (a stale replica answered part of it) is read again
 * from the leader.
 */
export class LogReads {
  constructor(
    readonly reader: SubjectReader,
    /** Entries already seen here, shared by every reader of this process (entry-cache.ts). */
    readonly cache: EntryCache,
    readonly leader: SubjectReader = reader,
  ) {}

  async read(subject: string, afterSeq: number, opts: { toSeq?: number; limit?: number } = {}): Promise<LogEntry[]> {
    requireInteger('afterSeq', afterSeq);
    if (opts.toSeq !== undefined) requireInteger('toSeq', opts.toSeq);
    if (opts.limit !== undefined) requireInteger('limit', opts.limit);
    if (opts.limit !== undefined && opts.limit <= 0) return [];
    const fast = await this.readVia(this.reader, subject, afterSeq, opts);
    if (fast.whole || this.leader === this.reader) return fast.entries;
    // No leader right now (an election): what the replicas gave is all there is to give.
    return this.readVia(this.leader, subject, afterSeq, opts).then(
      (led) => (led.entries.length >= fast.entries.length ? led.entries : fast.entries),
      () => fast.entries,
    );
  }

  /** The range by one reader; `whole` unless it may have missed entries another replica holds. */
  private async readVia(
    reader: SubjectReader,
    subject: string,
    afterSeq: number,
    opts: { toSeq?: number; limit?: number },
  ): Promise<{ entries: LogEntry[]; whole: boolean }> {
    const [first, last] = await this.endsVia(reader, subject);
    const bounds = boundsOf(first, last);
    const from = Math.max(afterSeq + 1, bounds.firstSeq);
    let to = Math.min(opts.toSeq ?? bounds.lastSeq, bounds.lastSeq);
    if (opts.limit !== undefined) to = Math.min(to, from + opts.limit - 1);
    // Asked for more than this replica holds: the log may not have it yet, or only the replica not.
    const asked = Math.min(opts.toSeq ?? bounds.lastSeq, opts.limit !== undefined ? from + opts.limit - 1 : Infinity);
    const reachable = asked <= bounds.lastSeq;
    if (to < from || !first || !last) return { entries: [], whole: reachable || asked < from };

    this.cache.touch(subject);
    const start = this.cache.get(subject, from) ?? (await reader.locate(subject, from, first, last));
    if (!start || start.decoded.kind !== 'entry' || start.decoded.entry.seq > to) return { entries: [], whole: false };
    const startSeq = start.decoded.entry.seq;
    const found = await readRange(reader.gets, subject, { ...start, decoded: start.decoded }, last, to, (seq) =>
      this.cache.get(subject, seq),
    );
    const entries = contiguous(found, startSeq, to);
    for (let seq = startSeq; seq < startSeq + entries.length; seq++) this.cache.put(subject, found.get(seq) as Located);
    return { entries, whole: reachable && entries.length === to - startSeq + 1 };
  }

  /**
   * What every reader goes by: from the leader (see the class comment). While no leader answers
   * (one is being elected), from the replicas: possibly behind, which a reader waits out.
   */
  async bounds(subject: string): Promise<LogBounds> {
    const ends = await this.ends(subject).catch((error: unknown) => {
      if (this.leader === this.reader) throw error;
      return this.endsVia(this.reader, subject);
    });
    return boundsOf(...ends);
  }

  /** The subject's first and last messages, from the leader. */
  ends(subject: string): Promise<[Located | undefined, Located | undefined]> {
    return this.endsVia(this.leader, subject);
  }

  private endsVia(reader: SubjectReader, subject: string): Promise<[Located | undefined, Located | undefined]> {
    return Promise.all([reader.firstAtOrAfter(subject), reader.last(subject)]);
  }

  /** The writer's head, from the leader: a stale one would refuse the writer's next entry. */
  async head(subject: string): Promise<Head> {
    const last = await this.leader.last(subject);
    return last ? { lastSeq: seqOf(last), streamSeq: last.streamSeq } : { lastSeq: 0, streamSeq: 0 };
  }
}

/**
 * Bounds from the subject's first and last messages. A mark as the last message means nothing is
 * retained; a mark as the first means retention starts right after the sequence it remembers.
 */
export function boundsOf(first: Located | undefined, last: Located | undefined): LogBounds {
  if (!last) return { firstSeq: 1, lastSeq: 0 };
  const lastSeq = seqOf(last);
  if (last.decoded.kind === 'mark' || !first) return { firstSeq: lastSeq + 1, lastSeq };
  const firstSeq = first.decoded.kind === 'mark' ? first.decoded.seq + 1 : first.decoded.entry.seq;
  // The two gets are not one snapshot: a trim between them must not yield firstSeq > lastSeq + 1.
  return { firstSeq: Math.min(firstSeq, lastSeq + 1), lastSeq };
}

function requireInteger(name: string, value: number): void {
  if (!Number.isInteger(value)) throw new RangeError(`${name} must be an integer, got ${value}`);
}
