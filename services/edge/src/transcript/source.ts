import type { FrameLog, LogEntry, TranscriptArchive } from '@pty-ws/ports';

/** An entry and where it was read from. */
export interface SourcedEntry {
  entry: LogEntry;
  source: 'log' | 'archive';
}

/**
 * A session's whole history: the hot frame log plus the archive of what it evicted. The owner
 * evicts only archived entries, so reading the log first and then the archive for whatever lies
 * before the log's first returned entry never misses one, even if a trim runs in between.
 */
export class TranscriptSource {
  constructor(
    private readonly sessionId: string,
    private readonly log: FrameLog,
    private readonly archive: TranscriptArchive | undefined,
  ) {}

  /** The oldest and newest sequences available from either store. */
  async bounds(): Promise<{ firstSeq: number; lastSeq: number; hotFirstSeq: number; archivedLastSeq: number }> {
    const [log, archived] = await Promise.all([
      this.log.bounds(this.sessionId),
      this.archive ? this.archive.stats(this.sessionId) : undefined,
    ]);
    const archiveHas = archived !== undefined && archived.frames > 0;
    return {
      firstSeq: archiveHas ? Math.min(archived.firstSeq, log.firstSeq) : log.firstSeq,
      lastSeq: Math.max(log.lastSeq, archived?.lastSeq ?? 0),
      hotFirstSeq: log.firstSeq,
      archivedLastSeq: archived?.lastSeq ?? 0,
    };
  }

  /** Entries with `afterSeq < seq <= toSeq`, oldest first, at most `limit`. */
  async read(afterSeq: number, toSeq: number, limit: number): Promise<SourcedEntry[]> {
    if (toSeq <= afterSeq || limit <= 0) return [];
    const hot = await this.log.read(this.sessionId, afterSeq, { toSeq, limit });
    const firstHot = hot[0]?.seq;
    const coldTo = firstHot !== undefined ? firstHot - 1 : toSeq;
    let cold: LogEntry[] = [];
    if (this.archive && coldTo > afterSeq) {
      cold = await this.archive.read(this.sessionId, afterSeq, { toSeq: coldTo, limit });
    }
    const out: SourcedEntry[] = cold.map((entry) => ({ entry, source: 'archive' as const }));
    const lastCold = cold.at(-1)?.seq ?? afterSeq;
    if (out.length >= limit) return out.slice(0, limit);
    // When the log had nothing (all of it evicted meanwhile), the archive covered the range.
    if (firstHot === undefined && cold.length > 0 && lastCold < toSeq) {
      const more = await this.read(lastCold, toSeq, limit - out.length);
      return [...out, ...more];
    }
    for (const entry of hot) {
      if (out.length >= limit) break;
      if (entry.seq > lastCold) out.push({ entry, source: 'log' });
    }
    return out;
  }
}
