import {
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  SequenceConflictError,
  retentionKeeps,
  type FrameLog,
  type LogBounds,
  type LogEntry,
  type RetentionPolicy,
  type Unsubscribe,
} from '@pty-ws/ports';
import { decode, decodeMeta, encodeEntry, encodeMark } from './codec';
import { frameStreamConfig, resolveFrameLogOptions, type JetStreamFrameLogOptions } from './frame-log-options';
import { ensureStream } from './setup';
import { seqOf, SubjectReader, type Located } from './subject-reader';
import { FrameSubjects } from './subjects';

/** The newest message of a session's subject as this process last saw it. */
interface Head {
  lastSeq: number;
  streamSeq: number;
}

/**
 * Publishes that lose to a trim's mark or a remote purge are retried under the fresh head; a
 * writer whose sequence is still the next one cannot be starved forever by a stream of trims.
 */
const MAX_ATTEMPTS = 5;
const EMPTY = new Uint8Array(0);

/**
 * The cluster FrameLog on one JetStream stream (see frame-log-options.ts for names).
 *
 * Mapping: session S's entries are the messages of subject `<prefix>.frames.<S>`, in order, one
 * per sequence with no gaps, the session sequence in the `Ptyws-Seq` header (codec.ts). The stream
 * sequence is never stored in an entry; the two are related only through the subject: the k-th
 * retained message of the subject is entry `firstSeq + k`, which `SubjectReader.locate` uses to
 * find where a read starts.
 *
 * Single writer and gapless: `append` publishes with `Nats-Expected-Last-Subject-Sequence` set to
 * the stream sequence of the subject's newest message, so the server stores it only if nothing
 * else was appended meanwhile; a lost race is a SequenceConflictError. The newest message is
 * cached per session, so the owner's steady-state append is one publish round trip.
 *
 * Delivery: subscribers listen on `<prefix>.live.<S>`, where the stream republishes each message
 * once stored, in stream order. Rejected publishes never reach them.
 *
 * Trimming everything leaves a mark (a message that is no entry) holding the last sequence, so
 * bounds and the next append still know where the session is; readers and subscribers skip marks.
 */
export class JetStreamFrameLog implements FrameLog {
  private readonly heads = new Map<string, Head>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly subjects: FrameSubjects,
    private readonly reader: SubjectReader,
    private readonly onSubscriberError: (error: unknown, sessionId: string) => void,
  ) {}

  /** Ensures the stream exists with the configuration the log relies on, then opens the log. */
  static async open(nc: NatsConnection, options: JetStreamFrameLogOptions = {}): Promise<JetStreamFrameLog> {
    const resolved = resolveFrameLogOptions(options);
    const subjects = new FrameSubjects(resolved.prefix);
    const jsm = await jetstreamManager(nc);
    await ensureStream(jsm, frameStreamConfig(resolved, subjects));
    const js = jetstream(nc);
    return new JetStreamFrameLog(
      nc,
      js,
      jsm,
      subjects,
      new SubjectReader(jsm, js, resolved.stream),
      resolved.onSubscriberError,
    );
  }

  get streamName(): string {
    return this.reader.stream;
  }

  async append(sessionId: string, entry: LogEntry): Promise<void> {
    const subject = this.subjects.frames(sessionId);
    const { headers, body } = encodeEntry(entry);
    let head = this.heads.get(sessionId);
    let fresh = false;
    for (let attempt = 1; ; attempt++) {
      if (!head) {
        head = await this.readHead(subject);
        fresh = true;
      }
      const expected = head.lastSeq + 1;
      if (entry.seq !== expected) {
        this.heads.delete(sessionId);
        // A cached head may be behind another process's appends: only a fresh one can refuse.
        if (!fresh) {
          head = undefined;
          continue;
        }
        throw new SequenceConflictError(sessionId, expected, entry.seq);
      }
      try {
        const ack = await this.js.publish(subject, body, { headers, expect: { lastSubjectSequence: head.streamSeq } });
        this.heads.set(sessionId, { lastSeq: entry.seq, streamSeq: ack.seq });
        return;
      } catch (error) {
        if (!isWrongLastSequence(error)) {
          this.heads.delete(sessionId); // the publish may or may not have been stored: re-read on retry
          throw error;
        }
        this.heads.delete(sessionId);
        // Someone appended (the re-read then refuses), or a trim's mark/purge moved the subject's
        // last message without changing the sequence (the re-read then allows a retry).
        head = undefined;
        if (attempt >= MAX_ATTEMPTS) {
          const now = await this.readHead(subject);
          throw new SequenceConflictError(sessionId, now.lastSeq + 1, entry.seq);
        }
      }
    }
  }

  async read(sessionId: string, afterSeq: number, opts: { toSeq?: number; limit?: number } = {}): Promise<LogEntry[]> {
    requireInteger('afterSeq', afterSeq);
    if (opts.toSeq !== undefined) requireInteger('toSeq', opts.toSeq);
    if (opts.limit !== undefined) requireInteger('limit', opts.limit);
    if (opts.limit !== undefined && opts.limit <= 0) return [];
    const subject = this.subjects.frames(sessionId);
    const [first, last] = await this.ends(subject);
    const bounds = boundsOf(first, last);
    const from = Math.max(afterSeq + 1, bounds.firstSeq);
    let to = Math.min(opts.toSeq ?? bounds.lastSeq, bounds.lastSeq);
    if (opts.limit !== undefined) to = Math.min(to, from + opts.limit - 1);
    if (to < from || !first || !last) return [];

    const start = await this.reader.locate(subject, from, first, last);
    if (!start || start.decoded.kind !== 'entry') return [];
    const out: LogEntry[] = [];
    let seq = start.decoded.entry.seq;
    if (seq > to) return out;
    out.push(start.decoded.entry);
    if (seq === to) return out;
    // One message of slack: a mark left by an interrupted trim can sit between entries.
    for await (const m of this.reader.scan(subject, start.streamSeq + 1, { max: to - seq + 1 })) {
      const decoded = decode(m.headers, m.data);
      if (decoded.kind === 'mark' || decoded.entry.seq <= seq) continue;
      if (decoded.entry.seq > to) break;
      out.push(decoded.entry);
      seq = decoded.entry.seq;
      if (seq === to) break;
    }
    return out;
  }

  async bounds(sessionId: string): Promise<LogBounds> {
    const [first, last] = await this.ends(this.subjects.frames(sessionId));
    return boundsOf(first, last);
  }

  subscribe(sessionId: string, onEntry: (entry: LogEntry) => void): Unsubscribe {
    const sub = this.nc.subscribe(this.subjects.live(sessionId), {
      callback: (error, msg) => {
        if (error) {
          this.report(error, sessionId);
          return;
        }
        let entry: LogEntry;
        try {
          const decoded = decode(msg.headers, msg.data);
          if (decoded.kind === 'mark') return;
          entry = decoded.entry;
        } catch (decodeError) {
          this.report(decodeError, sessionId);
          return;
        }
        try {
          onEntry(entry);
        } catch (subscriberError) {
          // One broken consumer must not cost the others (or the connection) their entries.
          this.report(subscriberError, sessionId);
        }
      },
    });
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      try {
        sub.unsubscribe();
      } catch {
        // The connection is already closed: the subscription went with it.
      }
    };
  }

  async trim(sessionId: string, policy: RetentionPolicy, nowMs: number): Promise<LogBounds> {
    const subject = this.subjects.frames(sessionId);
    for (let attempt = 1; ; attempt++) {
      const [first, last] = await this.ends(subject);
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
        // By stream sequence, not `keep: N`: an append landing meanwhile cannot shift what goes.
        await this.purgeBelow(subject, firstKept.streamSeq);
        return { firstSeq: firstKept.seq, lastSeq };
      }
      try {
        const ack = await this.js.publish(subject, EMPTY, {
          headers: encodeMark(lastSeq),
          expect: { lastSubjectSequence: last.streamSeq },
        });
        this.heads.set(sessionId, { lastSeq, streamSeq: ack.seq });
        await this.purgeBelow(subject, ack.seq);
        return { firstSeq: lastSeq + 1, lastSeq };
      } catch (error) {
        // An append landed after we looked: it is young, so judge again with it.
        if (!isWrongLastSequence(error) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  async remove(sessionId: string): Promise<void> {
    this.heads.delete(sessionId);
    await this.jsm.streams.purge(this.reader.stream, { filter: this.subjects.frames(sessionId) });
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
    for await (const m of this.reader.scan(subject, first.streamSeq, { headersOnly: true })) {
      if (m.streamSeq > last.streamSeq) return undefined;
      const meta = decodeMeta(m.headers);
      if (meta.kind === 'entry' && kept(meta.seq, meta.ts)) return { streamSeq: m.streamSeq, seq: meta.seq };
      if (m.streamSeq === last.streamSeq) return undefined;
    }
    return undefined;
  }

  private async purgeBelow(subject: string, streamSeq: number): Promise<void> {
    await this.jsm.streams.purge(this.reader.stream, { filter: subject, seq: streamSeq });
  }

  private async ends(subject: string): Promise<[Located | undefined, Located | undefined]> {
    return Promise.all([this.reader.firstAtOrAfter(subject), this.reader.last(subject)]);
  }

  private async readHead(subject: string): Promise<Head> {
    const last = await this.reader.last(subject);
    return last ? { lastSeq: seqOf(last), streamSeq: last.streamSeq } : { lastSeq: 0, streamSeq: 0 };
  }

  private report(error: unknown, sessionId: string): void {
    try {
      this.onSubscriberError(error, sessionId);
    } catch {
      // A failing reporter must not break delivery.
    }
  }
}

/**
 * Bounds from the subject's first and last messages. A mark as the last message means nothing is
 * retained; a mark as the first means retention starts right after the sequence it remembers.
 */
function boundsOf(first: Located | undefined, last: Located | undefined): LogBounds {
  if (!last) return { firstSeq: 1, lastSeq: 0 };
  const lastSeq = seqOf(last);
  if (last.decoded.kind === 'mark' || !first) return { firstSeq: lastSeq + 1, lastSeq };
  const firstSeq = first.decoded.kind === 'mark' ? first.decoded.seq + 1 : first.decoded.entry.seq;
  // The two gets are not one snapshot: a trim between them must not yield firstSeq > lastSeq + 1.
  return { firstSeq: Math.min(firstSeq, lastSeq + 1), lastSeq };
}

function isWrongLastSequence(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence ||
      error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}

function requireInteger(name: string, value: number): void {
  if (!Number.isInteger(value)) throw new RangeError(`${name} must be an integer, got ${value}`);
}
