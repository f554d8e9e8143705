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
 * The frame log's reads of one session subject, all by direct get (no consumer, so nothing to
 * clean up and no request to the JetStream API, which a cluster that just lost its meta leader
 * answers only once it has elected another): bounds from the subject's first and last messages,
 * the start of a range by bisection (SubjectReader.locate), the rest pipelined (range-read.ts).
 */
export class LogReads {
  constructor(
    readonly reader: SubjectReader,
    /** Entries already seen here, shared by every reader of this process (entry-cache.ts). */
    readonly cache: EntryCache,
  ) {}

  async read(subject: string, afterSeq: number, opts: { toSeq?: number; limit?: number } = {}): Promise<LogEntry[]> {
    requireInteger('afterSeq', afterSeq);
    if (opts.toSeq !== undefined) requireInteger('toSeq', opts.toSeq);
    if (opts.limit !== undefined) requireInteger('limit', opts.limit);
    if (opts.limit !== undefined && opts.limit <= 0) return [];
    const [first, last] = await this.ends(subject);
    const bounds = boundsOf(first, last);
    const from = Math.max(afterSeq + 1, bounds.firstSeq);
    let to = Math.min(opts.toSeq ?? bounds.lastSeq, bounds.lastSeq);
    if (opts.limit !== undefined) to = Math.min(to, from + opts.limit - 1);
    if (to < from || !first || !last) return [];

    this.cache.touch(subject);
    const start = this.cache.get(subject, from) ?? (await this.reader.locate(subject, from, first, last));
    if (!start || start.decoded.kind !== 'entry' || start.decoded.entry.seq > to) return [];
    const startSeq = start.decoded.entry.seq;
    const found = await readRange(this.reader.gets, subject, { ...start, decoded: start.decoded }, last, to, (seq) =>
      this.cache.get(subject, seq),
    );
    const entries = contiguous(found, startSeq, to);
    for (let seq = startSeq; seq < startSeq + entries.length; seq++) this.cache.put(subject, found.get(seq) as Located);
    return entries;
  }

  async bounds(subject: string): Promise<LogBounds> {
    const [first, last] = await this.ends(subject);
    return boundsOf(first, last);
  }

  ends(subject: string): Promise<[Located | undefined, Located | undefined]> {
    return Promise.all([this.reader.firstAtOrAfter(subject), this.reader.last(subject)]);
  }

  async head(subject: string): Promise<Head> {
    const last = await this.reader.last(subject);
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
