import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { MsgHdrs, NatsConnection } from '@nats-io/transport-node';
import {
  SequenceConflictError,
  type FrameLog,
  type LogBounds,
  type LogCut,
  type LogEntry,
  type RetentionPolicy,
  type Unsubscribe,
} from '@pty-ws/ports';
import { AppendChannel, type Channel } from './append-channel';
import { encodeCut, encodeEntry } from './codec';
import { DirectGets } from './direct-gets';
import { EntryCache } from './entry-cache';
import { frameStreamConfig, resolveFrameLogOptions, type JetStreamFrameLogOptions } from './frame-log-options';
import { LogReads, type Head } from './log-reads';
import { subscribeSession } from './log-subscribe';
import { LeaderGets } from './leader-gets';
import { isWrongLastSequence, LogTrim } from './log-trim';
import { ensureStream, requireClusterForReplicas } from './setup';
import { SubjectReader, type Located } from './subject-reader';
import { FrameSubjects } from './subjects';
import { WriterHeads } from './writer-heads';

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
/** A leader get unanswered this long: no leader right now (an election); readers fall back to the replicas. */
const LEADER_GET_TIMEOUT_MS = 2000;
/** Output entries up to this many bytes also go out early, ahead of the store (an echo, a prompt). */
const EARLY_COPY_MAX_BYTES = 4096;

/**
 * The cluster FrameLog on one JetStream stream (see frame-log-options.ts for names).
 *
 * Mapping: session S's entries are the messages of subject `<prefix>.frames.<S>`, in order, one
 * per sequence with no gaps, the session sequence in the `Ptyws-Seq` header (codec.ts). The stream
 * sequence is never stored in an entry; the two are related only through the subject: the k-th
 * retained message of the subject is entry `firstSeq + k`, which `SubjectReader.locate` uses to
 * find where a read starts. Reads are gets, never a consumer: direct gets, answered by any
 * replica, except what must not be stale (the writer's head, bounds), answered by the stream's
 * leader when the stream is replicated (log-reads.ts).
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
 * bounds and the next append still know where the session is; readers and subscribers skip marks
 * (log-trim.ts).
 */
export class JetStreamFrameLog implements FrameLog {
  private readonly tails = new Map<string, Tail>();

  private readonly reads: LogReads;
  private readonly trims: LogTrim;
  private readonly heads: WriterHeads;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly subjects: FrameSubjects,
    private readonly gets: DirectGets,
    private readonly onSubscriberError: (error: unknown, sessionId: string) => void,
    private readonly channel: AppendChannel | undefined,
    leader: LeaderGets | undefined,
  ) {
    const direct = new SubjectReader(js, gets);
    this.reads = new LogReads(direct, new EntryCache(), leader ? new SubjectReader(js, leader) : direct);
    this.trims = new LogTrim(js, jsm, this.reads);
    this.heads = new WriterHeads(this.reads);
  }

  /** Ensures the stream exists with the configuration the log relies on, then opens the log. */
  static async open(nc: NatsConnection, options: JetStreamFrameLogOptions = {}): Promise<JetStreamFrameLog> {
    const resolved = resolveFrameLogOptions(options);
    const subjects = new FrameSubjects(resolved.prefix);
    requireClusterForReplicas(nc, resolved.replicas, `JetStream stream '${resolved.stream}'`);
    const jsm = await jetstreamManager(nc);
    await ensureStream(jsm, frameStreamConfig(resolved, subjects));
    const js = jetstream(nc);
    // A replicated stream's followers answer direct gets too, possibly behind (log-reads.ts).
    const leader =
      resolved.replicas > 1
        ? new LeaderGets(
            await jetstreamManager(nc, { timeout: LEADER_GET_TIMEOUT_MS, checkAPI: false }),
            resolved.stream,
          )
        : undefined;
    return new JetStreamFrameLog(
      nc,
      js,
      jsm,
      subjects,
      new DirectGets(nc, resolved.stream),
      resolved.onSubscriberError,
      options.appendConnection ? new AppendChannel(options.appendConnection) : undefined,
      leader,
    );
  }

  /** Closes the append connection (after its in-flight appends); the shared connection is the caller's. */
  async close(): Promise<void> {
    this.gets.close();
    await this.channel?.close();
  }

  get streamName(): string {
    return this.gets.stream;
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
        await this.jsm.streams.deleteMessage(this.gets.stream, own.seq, false);
      }
      throw new PredecessorNotStoredError(sessionId, entry.seq, error);
    }
    if (!own) throw ownError;
    tail.streamSeq = own.seq;
    this.heads.stored(sessionId, entry.seq);
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
        head = await this.heads.fresh(sessionId, subject, entry.seq);
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
        this.heads.stored(sessionId, entry.seq);
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
          const now = await this.reads.head(subject);
          throw new SequenceConflictError(sessionId, now.lastSeq + 1, entry.seq);
        }
      }
    }
  }

  read(sessionId: string, afterSeq: number, opts: { toSeq?: number; limit?: number } = {}): Promise<LogEntry[]> {
    return this.reads.read(this.subjects.frames(sessionId), afterSeq, opts);
  }

  bounds(sessionId: string): Promise<LogBounds> {
    return this.reads.bounds(this.subjects.frames(sessionId));
  }

  subscribe(sessionId: string, onEntry: (entry: LogEntry) => void, onCut?: (cut: LogCut) => void): Unsubscribe {
    const source = {
      nc: this.nc,
      subjects: this.subjects,
      read: (afterSeq: number, opts: { toSeq: number; limit: number }) => this.read(sessionId, afterSeq, opts),
      bounds: () => this.bounds(sessionId),
      report: (error: unknown) => this.report(error, sessionId),
      stored: (m: Located) => this.reads.cache.put(this.subjects.frames(sessionId), m),
    };
    return subscribeSession(source, sessionId, onEntry, onCut);
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

  trim(sessionId: string, policy: RetentionPolicy, nowMs: number): Promise<LogBounds> {
    return this.trims.trim(this.subjects.frames(sessionId), policy, nowMs, (head) => {
      const tail = this.tails.get(sessionId);
      // An append still in flight will meet the mark (and be retried); a settled head moves to it.
      if (!tail || tail.streamSeq !== undefined) {
        this.tails.set(sessionId, {
          seq: head.lastSeq,
          published: Promise.resolve(undefined),
          streamSeq: head.streamSeq,
          stored: Promise.resolve(),
        });
      }
    });
  }

  async remove(sessionId: string): Promise<void> {
    this.tails.delete(sessionId);
    this.heads.forget(sessionId);
    this.reads.cache.forget(this.subjects.frames(sessionId));
    await this.trims.purgeAll(this.subjects.frames(sessionId));
  }

  private report(error: unknown, sessionId: string): void {
    try {
      this.onSubscriberError(error, sessionId);
    } catch {
      // A failing reporter must not break delivery.
    }
  }
}
