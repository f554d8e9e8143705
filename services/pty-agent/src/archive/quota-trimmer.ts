/**
 * One session's side of the transcript archive's byte quotas (archive-quota.ts): what its archive
 * stores as far as its archiver knows, and dropping the oldest chunks when that is over a quota.
 * Kept apart from the archiver, which decides what to write and when; this only follows what was
 * written.
 */
import type { ArchiveStats, LogEntry, TranscriptArchive } from '@pty-ws/ports';
import type { TranscriptArchiveMetrics } from '@pty-ws/telemetry';
import type { ArchiveQuota } from './archive-quota';
import { storedBound } from './chunk-sizes';

/**
 * Over a quota, the archive is cut to this fraction of what it may keep: the file archive rewrites
 * what it keeps when it drops chunks, so trimming to just under the quota would do so per chunk.
 */
const QUOTA_TRIM_TO = 0.75;

export class QuotaTrimmer {
  /**
   * What the archive stores for this session, as far as this archiver knows: its size at start,
   * plus each chunk's storedBound, reset by every trim.
   */
  private storedBytes = 0;
  private dropped = 0;

  constructor(
    private readonly sessionId: string,
    private readonly archive: TranscriptArchive,
    private readonly opts: {
      quota?: ArchiveQuota | undefined;
      logger: { warn(obj: object, msg: string): void };
      metrics?: TranscriptArchiveMetrics | undefined;
    },
  ) {}

  /** The archive no longer holds entries at or below this (dropped for the byte quota); 0: none dropped. */
  get droppedThrough(): number {
    return this.dropped;
  }

  /** What the archive held when the archiver started. */
  loaded(stats: ArchiveStats): void {
    this.storedBytes = stats.bytes;
    if (stats.frames > 0) this.dropped = stats.firstSeq - 1;
  }

  /** A chunk was written: counted, then the archive is trimmed if that puts it over a quota. */
  chunkWritten(chunk: readonly LogEntry[]): Promise<void> {
    this.storedBytes += storedBound(chunk);
    return this.keepWithinQuota();
  }

  /** The archiver ended: its session no longer counts towards the agent's total. */
  forget(): void {
    this.opts.quota?.forget(this.sessionId);
  }

  /**
   * Drops the oldest archived chunks when the session or the agent is over its byte quota; told as
   * `ptyws_transcript_dropped_*` and one `transcript_trimmed` log line. A failed trim is retried
   * after the next chunk; it never fails the write.
   */
  private async keepWithinQuota(): Promise<void> {
    const quota = this.opts.quota;
    const allowed = quota?.report(this.sessionId, this.storedBytes);
    if (!quota || allowed === undefined) return;
    try {
      const trim = await this.archive.dropOldest(this.sessionId, Math.floor(allowed * QUOTA_TRIM_TO));
      this.storedBytes = trim.remainingBytes;
      this.dropped = Math.max(this.dropped, trim.firstSeq - 1);
      quota.report(this.sessionId, trim.remainingBytes);
      if (trim.chunks === 0) return;
      this.opts.metrics?.archiveDropped(trim.frames, trim.bytes);
      this.opts.logger.warn(
        {
          audit: 'transcript_trimmed',
          session_id: this.sessionId,
          dropped_frames: trim.frames,
          dropped_bytes: trim.bytes,
          kept_bytes: trim.remainingBytes,
          first_seq: trim.firstSeq,
          session_quota_bytes: quota.sessionBytes,
          agent_quota_bytes: quota.agentBytes,
        },
        'transcript archive over its byte quota: its oldest chunks were dropped',
      );
    } catch (err) {
      this.opts.logger.warn(
        { session_id: this.sessionId, err: (err as Error)?.message ?? String(err) },
        'transcript archive over its byte quota, and dropping its oldest chunks failed (retried after the next chunk)',
      );
    }
  }
}
