import {
  SequenceConflictError,
  entryWeight,
  retentionKeeps,
  type FrameLog,
  type LogBounds,
  type LogCut,
  type LogEntry,
  type RetentionPolicy,
  type TranscriptArchive,
  type Unsubscribe,
} from '@pty-ws/ports';

export interface MemoryFrameLogOptions {
  /**
   * Told about a subscriber that threw. The append and the other subscribers carry on regardless:
   * one broken consumer must not stall a session. Defaults to console.error.
   */
  onSubscriberError?: (error: unknown, sessionId: string, seq: number) => void;
  /**
   * Where archived entries are read back from once they leave memory (single-node: the sessions'
   * transcript archive). Without it every retained entry stays in memory, which with the default
   * 24 h replay window is all of a session's output for a day.
   */
  spill?: SpillOptions;
}

export interface SpillOptions {
  archive: Pick<TranscriptArchive, 'read'>;
  /** Archived entries past this many newest ones leave memory (default 2048). */
  hotFrames?: number;
  /** ... or past this many bytes of them (default 8 MiB); unarchived entries always stay. */
  hotBytes?: number;
}

const DEFAULT_HOT_FRAMES = 2048;
const DEFAULT_HOT_BYTES = 8 * 1024 * 1024;

/**
 * Entries still retained but no longer in memory, as runs: a run ends at `toSeq` (it starts after
 * the previous one, the first at `SessionLog.oldestSeq`), and `maxTs` is the newest timestamp in it.
 * One run per trim that spilled (at most five a second), so a day is a few hundred thousand records.
 */
interface SpilledRun {
  toSeq: number;
  maxTs: number;
}

/** Trimmed slots are only reclaimed once this many have piled up (and at least as many as remain). */
const COMPACT_AFTER = 1024;

/** One session's retained entries: `entries[head..]`, oldest first, seqs `firstSeq..lastSeq` with no gaps. */
class SessionLog {
  // Trimmed slots are cleared (not spliced) so trimming costs O(dropped), not O(retained).
  entries: (LogEntry | undefined)[] = [];
  head = 0;
  lastSeq = 0;
  /** Bytes of the entries in memory (entryWeight). */
  bytes = 0;
  /** Retained entries below the ones in memory, oldest run first; read from the archive. */
  spilled: SpilledRun[] = [];
  /** The oldest retained sequence while anything is spilled. */
  spilledFrom = 1;

  get retained(): number {
    return this.entries.length - this.head;
  }

  /** The oldest entry in memory. */
  get firstSeq(): number {
    return this.lastSeq - this.retained + 1;
  }

  /** The oldest retained entry, in memory or spilled. */
  get oldestSeq(): number {
    return this.spilled.length > 0 ? this.spilledFrom : this.firstSeq;
  }

  /** Position in `entries` of a retained seq. */
  indexOf(seq: number): number {
    return this.head + (seq - this.firstSeq);
  }

  compactIfWorthIt(): void {
    // Nothing left in memory (an ended session, spilled whole): the cleared slots go at once.
    const empty = this.head > 0 && this.retained === 0;
    if (!empty && (this.head < COMPACT_AFTER || this.head < this.retained)) return;
    this.entries = this.entries.slice(this.head);
    this.head = 0;
  }
}

interface Subscription {
  onEntry: (entry: LogEntry) => void;
  onCut: ((cut: LogCut) => void) | undefined;
  active: boolean;
}

/** A session's subscribers and its in-progress delivery. */
class Topic {
  /** Replaced, never mutated, so a delivery in progress iterates a stable list. */
  subscriptions: readonly Subscription[] = [];
  delivering = false;
  /** Entries appended by a subscriber during a delivery; delivered after it so order holds for all. */
  pending: LogEntry[] = [];
}

const EMPTY_BOUNDS: Readonly<LogBounds> = Object.freeze({ firstSeq: 1, lastSeq: 0 });

/**
 * The embedded FrameLog: per-session arrays in this process.
 *
 * Entries are stored and returned by reference, without copying: the hot path appends every PTY
 * output chunk. They are immutable by contract — neither the writer nor readers may modify an
 * entry (or its `data`/`payload`) after `append`.
 *
 * Subscribers are called synchronously inside `append`, in subscription order. An append made by
 * a subscriber while it is being called is delivered once the current entry has reached every
 * subscriber, so all of them see entries in sequence order. `remove` forgets a session's entries
 * and sequence (the next append must be seq 1) but keeps its subscribers.
 */
export class MemoryFrameLog implements FrameLog {
  private readonly sessions = new Map<string, SessionLog>();
  private readonly topics = new Map<string, Topic>();
  private readonly onSubscriberError: (error: unknown, sessionId: string, seq: number) => void;

  private readonly spill: Required<SpillOptions> | undefined;

  constructor(options: MemoryFrameLogOptions = {}) {
    this.onSubscriberError =
      options.onSubscriberError ??
      ((error, sessionId, seq) => console.error(`frame log subscriber of ${sessionId} failed on seq ${seq}`, error));
    this.spill = options.spill && {
      archive: options.spill.archive,
      hotFrames: options.spill.hotFrames ?? DEFAULT_HOT_FRAMES,
      hotBytes: options.spill.hotBytes ?? DEFAULT_HOT_BYTES,
    };
  }

  async append(sessionId: string, entry: LogEntry): Promise<void> {
    let log = this.sessions.get(sessionId);
    const expected = (log?.lastSeq ?? 0) + 1;
    if (entry.seq !== expected) throw new SequenceConflictError(sessionId, expected, entry.seq);
    if (!log) {
      log = new SessionLog();
      this.sessions.set(sessionId, log);
    }
    log.entries.push(entry);
    log.lastSeq = entry.seq;
    log.bytes += entryWeight(entry);
    const topic = this.topics.get(sessionId);
    if (topic) this.deliver(sessionId, topic, entry);
  }

  async read(sessionId: string, afterSeq: number, opts: { toSeq?: number; limit?: number } = {}): Promise<LogEntry[]> {
    requireInteger('afterSeq', afterSeq);
    if (opts.toSeq !== undefined) requireInteger('toSeq', opts.toSeq);
    if (opts.limit !== undefined) requireInteger('limit', opts.limit);
    const log = this.sessions.get(sessionId);
    if (!log) return [];
    const from = Math.max(afterSeq + 1, log.oldestSeq);
    let to = Math.min(opts.toSeq ?? log.lastSeq, log.lastSeq);
    if (opts.limit !== undefined) to = Math.min(to, from + opts.limit - 1);
    if (to < from) return [];
    if (from < log.firstSeq && this.spill) return this.readSpilled(this.spill.archive, sessionId, from, to);
    // Slots from `head` on are always set, so the slice holds no cleared ones.
    return log.entries.slice(log.indexOf(from), log.indexOf(to) + 1) as LogEntry[];
  }

  /**
   * `from..to` where `from` has left memory: the archive's part, then the rest as a read of its
   * own (memory may have spilled or trimmed more while the archive was read). Stops where the
   * archive has nothing contiguous, so what is returned never has a gap.
   */
  private async readSpilled(
    archive: SpillOptions['archive'],
    sessionId: string,
    from: number,
    to: number,
  ): Promise<LogEntry[]> {
    const inMemoryFrom = this.sessions.get(sessionId)?.firstSeq ?? from;
    const archived = await archive.read(sessionId, from - 1, { toSeq: Math.min(to, inMemoryFrom - 1) });
    const out: LogEntry[] = [];
    for (const e of archived) {
      if (e.seq !== from + out.length) break;
      out.push(e);
    }
    const next = from + out.length;
    if (out.length === 0 || next > to || next < inMemoryFrom) return out;
    return out.concat(await this.read(sessionId, next - 1, { toSeq: to }));
  }

  async bounds(sessionId: string): Promise<LogBounds> {
    return boundsOf(this.sessions.get(sessionId));
  }

  subscribe(sessionId: string, onEntry: (entry: LogEntry) => void, onCut?: (cut: LogCut) => void): Unsubscribe {
    let topic = this.topics.get(sessionId);
    if (!topic) {
      topic = new Topic();
      this.topics.set(sessionId, topic);
    }
    const subscription: Subscription = { onEntry, onCut, active: true };
    topic.subscriptions = [...topic.subscriptions, subscription];
    return () => {
      if (!subscription.active) return;
      // Marked first: a delivery already iterating the old list must skip it from now on.
      subscription.active = false;
      const current = this.topics.get(sessionId);
      if (!current) return;
      current.subscriptions = current.subscriptions.filter((s) => s !== subscription);
      if (current.subscriptions.length === 0 && !current.delivering) this.topics.delete(sessionId);
    };
  }

  /** This log never refuses an append; a runtime over it that gave up still tells its subscribers. */
  announceCut(sessionId: string, cut: LogCut): void {
    for (const s of this.topics.get(sessionId)?.subscriptions ?? []) {
      if (!s.active) continue;
      try {
        s.onCut?.(cut);
      } catch (error) {
        this.report(error, sessionId, cut.lastSeq);
      }
    }
  }

  async trim(sessionId: string, policy: RetentionPolicy, nowMs: number): Promise<LogBounds> {
    const log = this.sessions.get(sessionId);
    if (!log) return boundsOf(undefined);
    const keeps = retentionKeeps(policy, log.lastSeq, nowMs);
    // Spilled runs first: a run goes once its newest entry goes (retention is monotonic in both
    // sequence and age), so at most one run's worth more than the policy asks stays readable.
    let runs = 0;
    while (runs < log.spilled.length && !keeps(log.spilled[runs]!.toSeq, log.spilled[runs]!.maxTs)) runs++;
    // Runs the archive dropped (its byte quota) cannot be read back: they go whatever the policy.
    const dropped = policy.droppedThrough ?? 0;
    while (runs < log.spilled.length && log.spilled[runs]!.toSeq <= dropped) runs++;
    if (runs > 0) {
      log.spilledFrom = log.spilled[runs - 1]!.toSeq + 1;
      log.spilled = log.spilled.slice(runs);
    }
    if (log.spilled.length > 0 && log.spilledFrom <= dropped) log.spilledFrom = dropped + 1;
    if (log.spilled.length === 0) this.trimMemory(log, keeps);
    this.spillArchived(log, policy.archivedThrough, policy.ended === true);
    log.compactIfWorthIt();
    return boundsOf(log);
  }

  private trimMemory(log: SessionLog, keeps: (seq: number, ts: number) => boolean): void {
    const { entries } = log;
    let i = log.head;
    for (; i < entries.length; i++) {
      const entry = entries[i] as LogEntry;
      // Stop at the first kept entry so what remains stays gapless, even if clocks stepped back.
      if (keeps(entry.seq, entry.ts)) break;
      log.bytes -= entryWeight(entry);
      entries[i] = undefined;
    }
    log.head = i;
  }

  /**
   * Lets archived entries beyond the hot window leave memory; reads get them from the archive. An
   * ended session has no hot window: nothing is appended any more, and its readers are replays.
   */
  private spillArchived(log: SessionLog, archivedThrough: number | undefined, ended: boolean): void {
    if (!this.spill || archivedThrough === undefined) return;
    const { hotFrames, hotBytes } = ended ? { hotFrames: 0, hotBytes: 0 } : this.spill;
    const { entries } = log;
    const first = log.firstSeq;
    let i = log.head;
    let maxTs = Number.NEGATIVE_INFINITY;
    while (i < entries.length && (entries.length - i > hotFrames || log.bytes > hotBytes)) {
      const entry = entries[i] as LogEntry;
      if (entry.seq > archivedThrough) break;
      maxTs = Math.max(maxTs, entry.ts);
      log.bytes -= entryWeight(entry);
      entries[i] = undefined;
      i++;
    }
    if (i === log.head) return;
    if (log.spilled.length === 0) log.spilledFrom = first;
    log.spilled.push({ toSeq: first + (i - log.head) - 1, maxTs });
    log.head = i;
  }

  async remove(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
  }

  private report(error: unknown, sessionId: string, seq: number): void {
    try {
      this.onSubscriberError(error, sessionId, seq);
    } catch {
      // A failing reporter must not cost the remaining subscribers their entries.
    }
  }

  private deliver(sessionId: string, topic: Topic, entry: LogEntry): void {
    if (topic.delivering) {
      topic.pending.push(entry);
      return;
    }
    topic.delivering = true;
    try {
      let next: LogEntry | undefined = entry;
      while (next) {
        for (const s of topic.subscriptions) {
          if (!s.active) continue;
          try {
            s.onEntry(next);
          } catch (error) {
            this.report(error, sessionId, next.seq);
          }
        }
        next = topic.pending.shift();
      }
    } finally {
      topic.delivering = false;
      if (topic.subscriptions.length === 0) this.topics.delete(sessionId);
    }
  }
}

function boundsOf(log: SessionLog | undefined): LogBounds {
  return log ? { firstSeq: log.oldestSeq, lastSeq: log.lastSeq } : { ...EMPTY_BOUNDS };
}

function requireInteger(name: string, value: number): void {
  if (!Number.isInteger(value)) throw new RangeError(`${name} must be an integer, got ${value}`);
}
