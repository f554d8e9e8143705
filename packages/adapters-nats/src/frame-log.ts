import {
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { MsgHdrs, NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  SequenceConflictError,
  retentionKeeps,
  type FrameLog,
  type LogBounds,
  type LogCut,
  type LogEntry,
  type RetentionPolicy,
  type Unsubscribe,
} from '@pty-ws/ports';
import { AppendChannel, type Channel } from './append-channel';
import { decode, decodeCut, decodeMeta, encodeCut, encodeEntry, encodeMark } from './codec';
import { frameStreamConfig, resolveFrameLogOptions, type JetStreamFrameLogOptions } from './frame-log-options';
import { LiveFeed } from './live-feed';
import { ensureStream, requireClusterForReplicas } from './setup';
import { seqOf, SubjectReader, type Located } from './subject-reader';
import { FrameSubjects } from './subjects';

/** The newest message of a session's subject as this process last saw it. */
interface Head {
  lastSeq: number;
  streamSeq: number;
}

/**
 * The newest entry this process appended for a session. Set in the tick `append` is called, so
 * the next append knows what it follows. Publishes go out strictly in order: each waits for its
 * predecessor's `published`, not for its ack.
 */
interface Tail {
  seq: number;
  /** Resolves when its publish went out (with the channel it took), or undefined if it never will. */
  published: Promise<Channel | undefined>;
  /** Its stream sequence once stored, with every entry before it. */
  streamSeq: number | undefined;
  /** Resolves once stored (and all before it); rejects if it or an earlier in-flight one was not. */
  stored: Promise<void>;
}

/** A pipelined append whose predecessor was not stored: it was not (or no longer is) in the log. */
export class PredecessorNotStoredError extends Error {
  constructor(sessionId: string, seq: number, cause: unknown) {
    super(`frame log of ${sessionId}: entry ${seq - 1} was not stored, so ${seq} was not either`, { cause });
    this.name = 'PredecessorNotStoredError';
  }
}

/**
 * Publishes that lose to a trim's mark or a remote purge are retried under the fresh head; a
 * writer whose sequence is still the next one cannot be starved forever by a stream of trims.
 */
const MAX_ATTEMPTS = 5;
const EMPTY = new Uint8Array(0);
/** Output entries up to this many bytes also go out early, ahead of the store (an echo, a prompt). */
const EARLY_COPY_MAX_BYTES = 4096;
/** Entries per log read when a subscriber fills a hole in its live feed. */
const FILL_BATCH = 500;
/** Reads of up to this many entries use direct gets rather than a consumer (see readDirect). */
const DIRECT_READ_MAX = 64;

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
 * Pipelining (with `appendConnection`): an append made while the previous one's ack is still out
 * is published at once on the same non-reconnecting connection, without the expectation (its
 * predecessor's stream sequence is not known yet) — with it when that ack is already in. The
 * server handles one connection's messages in order, so whatever it stored is a prefix of what
 * was sent; an append settles only after its predecessor, and fails if that one failed. A
 * predecessor the server rejected (a trim's mark got in between) while this one was stored
 * would leave a hole: this one deletes itself before failing, and the sequencer appends both
 * again. Without `appendConnection` every append waits for the one before.
 *
 * Delivery: subscribers listen on `<prefix>.live.<S>`, where the stream republishes each message
 * once stored, in stream order; rejected publishes never reach it. A small Output entry also goes
 * out early on `<prefix>.early.<S>` (core NATS) as it is appended, and a subscriber delivers
 * whichever copy of the next sequence comes first (live-feed.ts). An early copy of an append the
 * stream then refused is only seen again as the same entry: the single writer retries that very
 * entry (a second writer's refused entry is a SequenceConflictError either way). A writer killed
 * between an early copy and its store leaves a copy subscribers showed but the log never held;
 * the next writer's entry at that sequence is then dropped as its repeat. Only Output goes early,
 * so that takes an echo in the last millisecond before the kill, not the usual leave (a restarted
 * agent's Closed is appended right after the last stored entry).
 *
 * Trimming everything leaves a mark (a message that is no entry) holding the last sequence, so
 * bounds and the next append still know where the session is; readers and subscribers skip marks.
 */
export class JetStreamFrameLog implements FrameLog {
  private readonly tails = new Map<string, Tail>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly subjects: FrameSubjects,
    private readonly reader: SubjectReader,
    private readonly onSubscriberError: (error: unknown, sessionId: string) => void,
    private readonly channel: AppendChannel | undefined,
  ) {}

  /** Ensures the stream exists with the configuration the log relies on, then opens the log. */
  static async open(nc: NatsConnection, options: JetStreamFrameLogOptions = {}): Promise<JetStreamFrameLog> {
    const resolved = resolveFrameLogOptions(options);
    const subjects = new FrameSubjects(resolved.prefix);
    requireClusterForReplicas(nc, resolved.replicas, `JetStream stream '${resolved.stream}'`);
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
      options.appendConnection ? new AppendChannel(options.appendConnection) : undefined,
    );
  }

  /** Closes the append connection (after its in-flight appends); the shared connection is the caller's. */
  async close(): Promise<void> {
    await this.channel?.close();
  }

  get streamName(): string {
    return this.reader.stream;
  }

  append(sessionId: string, entry: LogEntry): Promise<void> {
    const prev = this.tails.get(sessionId);
    let published!: (via: Channel | undefined) => void;
    const tail: Tail = {
      seq: entry.seq,
      published: new Promise((resolve) => (published = resolve)),
      streamSeq: undefined,
      stored: Promise.resolve(),
    };
    this.tails.set(sessionId, tail);
    tail.stored = this.publishInTurn(sessionId, entry, prev, tail, published);
    tail.stored.then(
      () => undefined,
      () => {
        // Unknown outcome: the next append reads the head again (after its predecessors settle).
        if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId);
      },
    );
    return tail.stored;
  }

  /**
   * Once the predecessor's publish is out: right behind it on the same open channel (pipelined),
   * else after everything before has settled (serial). `published` is always called.
   */
  private async publishInTurn(
    sessionId: string,
    entry: LogEntry,
    prev: Tail | undefined,
    tail: Tail,
    published: (via: Channel | undefined) => void,
  ): Promise<void> {
    try {
      const via = prev ? await prev.published : undefined;
      const channel = this.channel?.current();
      if (prev && channel && via === channel && prev.seq === entry.seq - 1) {
        return await this.pipelined(sessionId, entry, prev, tail, channel, published);
      }
      return await this.serial(sessionId, entry, prev, tail, published);
    } finally {
      published(undefined); // no-op once it was published
    }
  }

  /** Published in this turn, behind `prev` on the same connection; settles after `prev`. */
  private async pipelined(
    sessionId: string,
    entry: LogEntry,
    prev: Tail,
    tail: Tail,
    channel: Channel,
    published: (via: Channel) => void,
  ): Promise<void> {
    const subject = this.subjects.frames(sessionId);
    const { headers, body } = encodeEntry(entry);
    const expect = prev.streamSeq !== undefined ? { lastSubjectSequence: prev.streamSeq } : undefined;
    const ack = channel.js.publish(subject, body, expect ? { headers, expect } : { headers });
    this.publishEarly(sessionId, entry, body, headers);
    published(channel);
    let own: { seq: number } | undefined;
    let ownError: unknown;
    try {
      own = await ack;
    } catch (error) {
      ownError = error;
    }
    try {
      await prev.stored;
    } catch (error) {
      if (own) {
        // Stored behind a hole: take it out again before anyone relies on it.
        await this.jsm.streams.deleteMessage(this.reader.stream, own.seq, false);
      }
      throw new PredecessorNotStoredError(sessionId, entry.seq, error);
    }
    if (!own) throw ownError;
    tail.streamSeq = own.seq;
  }

  /**
   * An early copy of a small Output entry (an echo), on the shared connection: the server handles
   * a connection's input in batches and flushes what it routes after the batch, so a copy in the
   * same write as the append would wait for the store. Large entries (a flood) only travel once,
   * in the append: under load a second copy would cost more than the store's latency. Events
   * (membership, resizes, keyframes, Closed) are not latency-critical and never go early: an early
   * copy of an entry the store then never got (the writer was killed in between) is delivered
   * anyway, and the next writer's entry at that sequence — the Closed of a restarted agent, right
   * after the leave that preceded the kill — would be dropped as its repeat.
   */
  private publishEarly(sessionId: string, entry: LogEntry, body: Uint8Array, headers: MsgHdrs): void {
    if (entry.type === 'output' && body.length <= EARLY_COPY_MAX_BYTES) {
      this.nc.publish(this.subjects.early(sessionId), body, { headers });
    }
  }

  /** After everything before it settled: from the cached or a freshly read head, with the expectation. */
  private async serial(
    sessionId: string,
    entry: LogEntry,
    prev: Tail | undefined,
    tail: Tail,
    published: (via: Channel | undefined) => void,
  ): Promise<void> {
    let head: Head | undefined;
    if (prev) {
      await prev.stored.then(
        () => {
          if (prev.streamSeq !== undefined) head = { lastSeq: prev.seq, streamSeq: prev.streamSeq };
        },
        () => undefined,
      );
    }
    const subject = this.subjects.frames(sessionId);
    const { headers, body } = encodeEntry(entry);
    let fresh = false;
    for (let attempt = 1; ; attempt++) {
      if (!head) {
        head = await this.readHead(subject);
        fresh = true;
      }
      const expected = head.lastSeq + 1;
      if (entry.seq !== expected) {
        // A cached head may be behind another process's appends: only a fresh one can refuse.
        if (!fresh) {
          head = undefined;
          continue;
        }
        throw new SequenceConflictError(sessionId, expected, entry.seq);
      }
      const channel: Channel = this.channel ? await this.channel.open() : { js: this.js, nc: this.nc };
      try {
        const ack = channel.js.publish(subject, body, { headers, expect: { lastSubjectSequence: head.streamSeq } });
        this.publishEarly(sessionId, entry, body, headers);
        // Only the append channel keeps what it stored a prefix of what it was sent.
        published(this.channel ? channel : undefined);
        tail.streamSeq = (await ack).seq;
        return;
      } catch (error) {
        if (!isWrongLastSequence(error)) throw error; // may or may not have been stored: re-read on retry
        // Appends may already be pipelined behind this publish: a second publish would land after
        // them. Fail instead; they fail with it, and the sequencer appends them all again in order.
        if (this.channel) throw error;
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
    if (to - seq <= DIRECT_READ_MAX) return this.readDirect(subject, start.streamSeq, seq, to, out);
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

  /**
   * The entries after `seq` up to `to`, one direct get each from stream position `streamSeq` on:
   * no consumer, so no request to the JetStream meta leader, which a cluster that just lost it
   * answers only once it has elected another (seconds). Subscribers fill their small gaps so.
   */
  private async readDirect(
    subject: string,
    streamSeq: number,
    seq: number,
    to: number,
    out: LogEntry[],
  ): Promise<LogEntry[]> {
    for (let at = streamSeq; seq < to;) {
      const m = await this.reader.firstAtOrAfter(subject, at + 1);
      if (!m) break;
      at = m.streamSeq;
      if (m.decoded.kind === 'mark' || m.decoded.entry.seq <= seq) continue;
      if (m.decoded.entry.seq > to) break;
      out.push(m.decoded.entry);
      seq = m.decoded.entry.seq;
    }
    return out;
  }

  async bounds(sessionId: string): Promise<LogBounds> {
    const [first, last] = await this.ends(this.subjects.frames(sessionId));
    return boundsOf(first, last);
  }

  subscribe(sessionId: string, onEntry: (entry: LogEntry) => void, onCut?: (cut: LogCut) => void): Unsubscribe {
    const feed = new LiveFeed({
      read: (afterSeq, toSeq) => this.read(sessionId, afterSeq, { toSeq, limit: FILL_BATCH }),
      bounds: () => this.bounds(sessionId),
      deliver: onEntry,
      report: (error) => this.report(error, sessionId),
    });
    const feedFrom = (subject: string, take: (entry: LogEntry) => void): Subscription =>
      this.nc.subscribe(subject, {
        callback: (error, msg) => {
          if (error) return this.report(error, sessionId);
          let decoded;
          try {
            decoded = decode(msg.headers, msg.data);
          } catch (decodeError) {
            return this.report(decodeError, sessionId);
          }
          if (decoded.kind === 'entry') take(decoded.entry);
        },
      });
    const subs = [
      feedFrom(this.subjects.live(sessionId), (e) => feed.stored(e)),
      feedFrom(this.subjects.early(sessionId), (e) => feed.early(e)),
    ];
    if (onCut) {
      subs.push(
        this.nc.subscribe(this.subjects.cut(sessionId), {
          callback: (error, msg) => {
            if (error) return this.report(error, sessionId);
            const cut = decodeCut(msg.data);
            if (!cut) return this.report(new Error('malformed log cut notice'), sessionId);
            try {
              onCut(cut);
            } catch (cutError) {
              this.report(cutError, sessionId);
            }
          },
        }),
      );
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      feed.dispose();
      for (const sub of subs) {
        try {
          sub.unsubscribe();
        } catch {
          // The connection is already closed: the subscription went with it.
        }
      }
    };
  }

  /**
   * On core NATS, beside the stream (which is what may be unreachable): while the connection is
   * reconnecting the client keeps the message and sends it once it is back.
   */
  announceCut(sessionId: string, cut: LogCut): void {
    try {
      this.nc.publish(this.subjects.cut(sessionId), encodeCut(cut));
    } catch (error) {
      this.report(error, sessionId); // the connection is closed for good: nobody is listening here
    }
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
        const tail = this.tails.get(sessionId);
        // An append still in flight will meet the mark (and be retried); a settled head moves to it.
        if (!tail || tail.streamSeq !== undefined) {
          this.tails.set(sessionId, {
            seq: lastSeq,
            published: Promise.resolve(undefined),
            streamSeq: ack.seq,
            stored: Promise.resolve(),
          });
        }
        await this.purgeBelow(subject, ack.seq);
        return { firstSeq: lastSeq + 1, lastSeq };
      } catch (error) {
        // An append landed after we looked: it is young, so judge again with it.
        if (!isWrongLastSequence(error) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  async remove(sessionId: string): Promise<void> {
    this.tails.delete(sessionId);
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
