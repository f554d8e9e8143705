import type { LogEntry } from './frame-log';

/** What an archive holds for one session. */
export interface ArchiveStats {
  /** Oldest archived sequence; `lastSeq + 1` when nothing is archived. */
  firstSeq: number;
  /** Newest archived sequence; 0 when nothing is archived. */
  lastSeq: number;
  /** Entries archived (`lastSeq - firstSeq + 1`: an archive has no gaps). */
  frames: number;
  chunks: number;
  /** Compressed bytes stored. */
  bytes: number;
}

/**
 * The durable, compressed per-session archive of a session's frame log: the long-term
 * transcript, while the FrameLog is only the hot replay window.
 *
 * Guarantees: per session one writer (the session's owner agent) appends runs of consecutive
 * entries, each run a chunk. An archive is gapless: a run must start at `lastSeq + 1` (or anywhere
 * for a session's first chunk); entries at or below `lastSeq` are dropped (a retried append whose
 * acknowledgement was lost is harmless); a run that would leave a gap is refused with
 * SequenceConflictError. A resolved `append` is durable: the owner only lets the FrameLog evict
 * entries at or below the archive's `lastSeq`, so every sequence is always in one or the other.
 */
export interface TranscriptArchive {
  append(sessionId: string, entries: readonly LogEntry[]): Promise<void>;
  /** Entries with `afterSeq < seq <= toSeq` (default: all), oldest first, at most `limit`. */
  read(sessionId: string, afterSeq: number, opts?: { toSeq?: number; limit?: number }): Promise<LogEntry[]>;
  stats(sessionId: string): Promise<ArchiveStats>;
  /** Forgets a session's archive (when the session itself is forgotten). */
  remove(sessionId: string): Promise<void>;
  /**
   * Drops the session's oldest chunks until it stores at most `keepBytes` (compressed), always
   * keeping the newest chunk: the archive then starts later (`stats().firstSeq`), still gapless
   * from there, and appends continue as before. A byte quota, not a retention rule.
   */
  dropOldest(sessionId: string, keepBytes: number): Promise<ArchiveTrim>;
}

/** What `dropOldest` removed, and what the session's archive holds after it. */
export interface ArchiveTrim {
  chunks: number;
  frames: number;
  bytes: number;
  /** Compressed bytes still stored. */
  remainingBytes: number;
  /** Oldest sequence still archived (`lastSeq + 1` when nothing is). */
  firstSeq: number;
}

export const EMPTY_ARCHIVE_STATS: Readonly<ArchiveStats> = Object.freeze({
  firstSeq: 1,
  lastSeq: 0,
  frames: 0,
  chunks: 0,
  bytes: 0,
});
