import { newId, type OutputStream, type ServiceParameters } from '@pty-ws/protocol';
import { entryWeight, isSequenceConflict, systemClock, type Clock, type FrameLog, type LogEntry } from '@pty-ws/ports';

export interface SequencerOptions {
  sessionId: string;
  log: FrameLog;
  /** The log's last sequence: the next entry gets the one after it. */
  lastSeq: number;
  /** The log refused for good (another writer, or an outage past the retry window). */
  onFailure: (err: Error) => void;
  /** Told each entry once it is in the log, in sequence order (trim, transcript archive). */
  afterAppend?: (entry: LogEntry) => void;
  /** Told of each failed attempt that will be retried. */
  onRetry?: (err: Error) => void;
  /** Entry timestamps (wall) and the retry window and back-off (monotonic). */
  clock?: Clock;
  /** How long a failing append is retried before the log is given up (PTYWS_LOG_OUTAGE_GIVE_UP_S); default 120 s. */
  giveUpMs?: number;
  /**
   * Bytes sequenced and not yet confirmed past which `onWaiting` says the output should wait
   * (PTYWS_LOG_OUTAGE_BUFFER_BYTES); it says it may flow again once half of that is left. Default 64 MiB.
   */
  waitingBound?: number;
  /** Told when the unconfirmed bytes pass the bound (true) and drop to half of it again (false). */
  onWaiting?: (over: boolean) => void;
  /** Told of every change of the unconfirmed bytes (a metric). */
  onWaitingBytes?: (delta: number) => void;
}

/** An append issued to the log and not yet confirmed. */
interface Issued {
  entry: LogEntry;
  attempt: Promise<void>;
  /** Issued while an earlier append was unconfirmed: its failure may only be that one's echo. */
  speculative: boolean;
}

/**
 * The single writer of one session's frame log. Sequence numbers are assigned synchronously (so
 * the headless terminal and the log agree on what a sequence means). Appends are issued in
 * sequence order, up to MAX_IN_FLIGHT (and MAX_IN_FLIGHT_BYTES) before the first is confirmed (a
 * remote log pipelines them instead of waiting a round trip each), and confirmed in order: `afterAppend` and `flushed`
 * only ever see a gapless prefix of what was sequenced.
 */
export class Sequencer {
  private last: number;
  /** Issues appends one after another, in sequence order. */
  private issueChain: Promise<void> = Promise.resolve();
  /** Confirms them in the same order; what `flushed` waits for. */
  private chain: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  private inFlight = 0;
  private inFlightBytes = 0;
  /** While set, nothing new is issued: a failed append is being retried first. */
  private recovering = false;
  private readonly attempts = new Set<Promise<void>>();
  private roomWaiter: (() => void) | undefined;
  /** Bytes (entryWeight) sequenced and not yet confirmed or dropped: what an outage makes wait. */
  private waitingBytes = 0;
  private overBound = false;

  private readonly sessionId: string;
  private readonly log: FrameLog;
  private readonly onFailure: (err: Error) => void;
  private readonly afterAppend: (entry: LogEntry) => void;
  private readonly onRetry: (err: Error) => void;
  private readonly clock: Clock;
  private readonly giveUpMs: number;
  private readonly waitingBound: number;
  private readonly onWaiting: (over: boolean) => void;
  private readonly onWaitingBytes: (delta: number) => void;

  constructor(opts: SequencerOptions) {
    ({ sessionId: this.sessionId, log: this.log, onFailure: this.onFailure } = opts);
    this.last = opts.lastSeq;
    this.afterAppend = opts.afterAppend ?? (() => {});
    this.onRetry = opts.onRetry ?? (() => {});
    this.clock = opts.clock ?? systemClock;
    this.giveUpMs = opts.giveUpMs ?? DEFAULT_GIVE_UP_MS;
    this.waitingBound = opts.waitingBound ?? DEFAULT_WAITING_BOUND;
    this.onWaiting = opts.onWaiting ?? (() => {});
    this.onWaitingBytes = opts.onWaitingBytes ?? (() => {});
  }

  get lastSeq(): number {
    return this.last;
  }

  /** The log was given up: nothing sequenced from then on reaches it. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  output(stream: OutputStream, data: Uint8Array): number {
    return this.append((seq) => ({ type: 'output', seq, id: newId(), ts: this.clock.now(), stream, data }));
  }

  event(
    op: string,
    payload: Record<string, unknown>,
    extra: { taskId?: string; serviceParameters?: ServiceParameters } = {},
  ): number {
    return this.append((seq) => ({ type: 'event', seq, id: newId(), ts: this.clock.now(), op, payload, ...extra }));
  }

  /**
   * Reserves the next sequence for an entry whose content is computed asynchronously (a
   * cadence Keyframe): later entries queue behind it, so nothing can land between the
   * snapshot's anchor and the keyframe itself.
   */
  reserve(build: (seq: number) => Promise<LogEntry>): number {
    const seq = ++this.last;
    const entry = build(seq);
    this.enqueue(seq, () => entry, EVENT_WEIGHT);
    return seq;
  }

  /** Resolves once every entry sequenced so far is in the log. */
  flushed(): Promise<void> {
    return this.chain;
  }

  private append(build: (seq: number) => LogEntry): number {
    const seq = ++this.last;
    const entry = build(seq);
    this.enqueue(seq, () => entry, entryWeight(entry));
    return seq;
  }

  /**
   * Issues in order, confirms in order. A transient failure (a NATS outage, a timed-out ack) is
   * retried with backoff for up to `giveUpMs`, and nothing new is issued meanwhile, so order
   * and gaplessness hold. Retrying starts only once every issued append has settled, so the log
   * is no longer changing; an attempt whose ack was lost may have been stored: before retrying
   * we look at the log's last sequence — this sequencer is the session's only writer, so a stored
   * `seq` is this entry. Only a sequence conflict on an append issued with nothing unconfirmed
   * before it (another writer), or an outage longer than the window, is final. `waits`: the
   * bytes the entry counts as waiting for the log until it is confirmed or dropped.
   */
  private enqueue(seq: number, entryOf: () => LogEntry | Promise<LogEntry>, waits: number): void {
    this.waiting(waits);
    const issued = this.issueChain.then(async (): Promise<Issued | undefined> => {
      if (this.failure) return undefined;
      // Building the entry (a keyframe's snapshot) is not I/O: a failure there is final, not an
      // outage to retry for the whole window while every later frame waits behind it.
      let entry: LogEntry;
      try {
        entry = await entryOf();
      } catch (err) {
        this.fail(err);
        return undefined;
      }
      const weight = entryWeight(entry);
      while (!this.hasRoom(weight) && !this.failure) {
        await new Promise<void>((resolve) => (this.roomWaiter = resolve));
      }
      if (this.failure) return undefined;
      const speculative = this.inFlight > 0;
      this.inFlight++;
      this.inFlightBytes += weight;
      return { entry, attempt: this.attempt(entry), speculative };
    });
    this.issueChain = issued.then(() => undefined);
    this.chain = this.chain.then(async () => {
      const slot = await issued;
      if (!slot) return this.waiting(-waits);
      try {
        if (
          await slot.attempt.then(
            () => true,
            (err: unknown) => this.recover(seq, slot, err),
          )
        ) {
          if (!this.failure) this.afterAppend(slot.entry);
        }
      } finally {
        this.inFlight--;
        this.inFlightBytes -= entryWeight(slot.entry);
        if (this.inFlight === 0) this.recovering = false;
        this.wakeIssuer();
        this.waiting(-waits);
      }
    });
  }

  /** An entry of `weight` may be issued now (one always may when nothing is in flight). */
  private hasRoom(weight: number): boolean {
    if (this.recovering) return false;
    if (this.inFlight === 0) return true;
    return this.inFlight < MAX_IN_FLIGHT && this.inFlightBytes + weight <= MAX_IN_FLIGHT_BYTES;
  }

  private attempt(entry: LogEntry): Promise<void> {
    const attempt = this.log.append(this.sessionId, entry);
    this.attempts.add(attempt);
    const forget = () => this.attempts.delete(attempt);
    attempt.then(forget, forget);
    return attempt;
  }

  /** Retries one failed append; true once it is in the log, false when the failure is final. */
  private async recover(seq: number, slot: Issued, firstError: unknown): Promise<boolean> {
    if (this.failure) return false;
    this.recovering = true;
    while (this.attempts.size > 0) await Promise.allSettled([...this.attempts]);
    let e = toError(firstError);
    let final = isSequenceConflict(e) && !slot.speculative;
    // Issued behind an unconfirmed append, it most likely failed because that one did, which has
    // just been dealt with: look again at once (an outage still in progress backs off from there).
    let delay = slot.speculative || e.name === 'PredecessorNotStoredError' ? 0 : 50;
    const deadline = this.clock.monotonic() + this.giveUpMs;
    for (;;) {
      if (this.failure) return false;
      if (final || this.clock.monotonic() + delay > deadline) {
        this.fail(e);
        return false;
      }
      if (delay > 0) {
        this.onRetry(e);
        await new Promise<void>((resolve) => this.clock.setTimeout(resolve, delay));
      }
      delay = delay === 0 ? 50 : Math.min(delay * 2, 2000);
      try {
        if ((await this.log.bounds(this.sessionId)).lastSeq >= seq) return true;
        await this.attempt(slot.entry);
        return true;
      } catch (err) {
        e = toError(err);
        final = isSequenceConflict(e);
      }
    }
  }

  private fail(err: unknown): void {
    if (this.failure) return;
    this.failure = toError(err);
    this.onFailure(this.failure);
    this.wakeIssuer();
  }

  /** Counts bytes waiting for the log; past the bound the output should wait, until half is left. */
  private waiting(delta: number): void {
    this.waitingBytes += delta;
    this.onWaitingBytes(delta);
    if (!this.overBound && this.waitingBytes > this.waitingBound) {
      this.overBound = true;
      this.onWaiting(true);
    } else if (this.overBound && this.waitingBytes <= this.waitingBound / 2) {
      this.overBound = false;
      this.onWaiting(false);
    }
  }

  private wakeIssuer(): void {
    const wake = this.roomWaiter;
    this.roomWaiter = undefined;
    wake?.();
  }
}

function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Appends issued before the first unconfirmed one is: enough to cover a round trip at full
 * output speed, small enough that a retry after an outage re-sends little. Counted in entries
 * (keystroke echoes are tiny) and in bytes: what is in flight when the PTY stops being read for
 * slow readers reaches an edge all the same, and the edge keeps back at most HELD_BYTES (8 MiB,
 * @pty-ws/ports output-flow.ts) of it; 4 MiB is the 32 frames of 128 KiB this was sized with.
 */
const MAX_IN_FLIGHT = 32;
const MAX_IN_FLIGHT_BYTES = 4 * 1024 * 1024;

/** How long an append is retried before the session's log is given up (PTYWS_LOG_OUTAGE_GIVE_UP_S). */
export const DEFAULT_GIVE_UP_MS = 120_000;
/** Output kept for the log during an outage before the PTY waits (PTYWS_LOG_OUTAGE_BUFFER_BYTES). */
const DEFAULT_WAITING_BOUND = 64 * 1024 * 1024;
/** A reserved entry's weight before it is built (a cadence Keyframe): an event's, as entryWeight counts it. */
const EVENT_WEIGHT = 256;
