import type { OutputStream, ServiceParameters } from '@pty-ws/protocol';

interface EntryBase {
  /** Per-session sequence, gapless from 1. */
  seq: number;
  /** Frame id (UUIDv7), stored so replay reproduces the frame byte for byte. */
  id: string;
  /** Epoch milliseconds when the owner sequenced the frame. */
  ts: number;
}

/** PTY bytes, stored raw (never base64) so the log stays compact. */
export interface OutputEntry extends EntryBase {
  type: 'output';
  stream: OutputStream;
  data: Uint8Array;
}

/** Any other frame of the session's shared story (docs/spec/README.md interpretation 1). */
export interface EventEntry extends EntryBase {
  type: 'event';
  op: string;
  payload: Record<string, unknown>;
  /** Set on TaskStatusUpdate: only subscribers of that task receive it (interpretation 2). */
  taskId?: string;
  serviceParameters?: ServiceParameters;
}

export type LogEntry = OutputEntry | EventEntry;

export interface LogBounds {
  /** Oldest retained sequence; `lastSeq + 1` when nothing is retained. */
  firstSeq: number;
  /** Newest sequence written; 0 for a session that has written nothing. */
  lastSeq: number;
}

/** Retention keeps an entry while it is among the last `minFrames` OR younger than `minAgeMs`. */
export interface RetentionPolicy {
  minFrames: number;
  minAgeMs: number;
  /**
   * When set, entries above this sequence are kept whatever their age: they are not yet in the
   * session's TranscriptArchive, and an entry must never be in neither.
   */
  archivedThrough?: number;
  /**
   * When set, the session's TranscriptArchive no longer holds entries at or below this sequence
   * (its byte quota dropped them): a log that reads old entries back from the archive lets them go.
   */
  droppedThrough?: number;
  /**
   * The session has ended and its archive holds it through `archivedThrough`: a log that reads old
   * entries back from the archive keeps none of the archived ones in memory (replay of a closed
   * session reads the archive), so closed sessions cost the agent nothing but their bookkeeping.
   */
  ended?: boolean;
}

/**
 * The retention rule as a predicate over one entry of a log whose newest sequence is `lastSeq`:
 * kept while among the last `minFrames` OR younger than `minAgeMs` (the larger window, README
 * interpretation 7), and always while above `archivedThrough`. Every FrameLog trims by this.
 */
export function retentionKeeps(
  policy: RetentionPolicy,
  lastSeq: number,
  nowMs: number,
): (seq: number, ts: number) => boolean {
  const firstOfLastFrames = lastSeq - policy.minFrames + 1;
  const oldestYoungTs = nowMs - policy.minAgeMs;
  const archivedThrough = policy.archivedThrough ?? Number.POSITIVE_INFINITY;
  return (seq, ts) => seq >= firstOfLastFrames || ts > oldestYoungTs || seq > archivedThrough;
}

export type Unsubscribe = () => void;

/**
 * A session's owner gave up writing its log (an outage past PTYWS_LOG_OUTAGE_GIVE_UP_S) and ended
 * it: told to subscribers beside the log, which may still be unreachable, so that every reader
 * learns of the end. The log then ends where the outage began, with `Closed` reason `error` once
 * it can be appended.
 */
export interface LogCut {
  /** The last sequence the owner had numbered: entries after the log's end up to it were lost. */
  lastSeq: number;
  /** For people: what failed and for how long. */
  message: string;
}

/**
 * The per-session sequenced frame log: the single source of replay.
 *
 * Guarantees: per session there is one writer (the session's owner), and `append` accepts only
 * `seq === lastSeq + 1`, rejecting anything else with SequenceConflictError, so the log is gapless
 * and never holds two frames with one sequence. Entries are delivered to subscribers in sequence
 * order; a subscriber may see an entry more than once across reconnects and must drop
 * `seq <= last seen`.
 */
export interface FrameLog {
  append(sessionId: string, entry: LogEntry): Promise<void>;
  /** Entries with `afterSeq < seq <= toSeq` (default: all), oldest first, at most `limit`. */
  read(sessionId: string, afterSeq: number, opts?: { toSeq?: number; limit?: number }): Promise<LogEntry[]>;
  bounds(sessionId: string): Promise<LogBounds>;
  /** Live entries appended after this call; `onCut` hears the session's owner give its log up (LogCut). */
  subscribe(sessionId: string, onEntry: (entry: LogEntry) => void, onCut?: (cut: LogCut) => void): Unsubscribe;
  /**
   * Tells the session's subscribers, on every process, that its owner gave its log up: best
   * effort and at once (a remote log sends it once its connection is back); never throws. A log
   * that cannot fail need not implement it.
   */
  announceCut?(sessionId: string, cut: LogCut): void;
  /** Drops entries outside the retention windows; returns the new bounds. */
  trim(sessionId: string, policy: RetentionPolicy, nowMs: number): Promise<LogBounds>;
  /** Forgets a session entirely (after its retention has run out). */
  remove(sessionId: string): Promise<void>;
}

/**
 * What an entry weighs for the bounds kept on entries in memory: its Output bytes, or 256 for an
 * event (small JSON, whose size is not known without serializing it).
 */
export function entryWeight(entry: LogEntry): number {
  return entry.type === 'output' ? entry.data.length : 256;
}

/** The session's `Closed` frame, which ends an ended session's log. */
export function isClosedEntry(entry: LogEntry | undefined): entry is EventEntry {
  return entry?.type === 'event' && entry.op === 'pty.session_frame' && entry.payload['kind'] === 'Closed';
}

/** Whether the log's entry at `lastSeq` (the last its bounds name) is the session's `Closed`. */
export async function logEndsInClosed(
  log: Pick<FrameLog, 'read'>,
  sessionId: string,
  lastSeq: number,
): Promise<boolean> {
  if (lastSeq < 1) return false;
  const [last] = await log.read(sessionId, lastSeq - 1, { toSeq: lastSeq });
  return isClosedEntry(last);
}

/** The replay window check shared by every implementation (binding §8.3). */
export function replayInRange(replayFrom: number, bounds: LogBounds): boolean {
  return replayFrom >= bounds.firstSeq - 1 && replayFrom <= bounds.lastSeq;
}
