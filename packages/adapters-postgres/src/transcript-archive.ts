import type { Pool } from 'pg';
import {
  EMPTY_ARCHIVE_STATS,
  SequenceConflictError,
  acceptedRun,
  decodeChunk,
  encodeChunk,
  selectRange,
  type ArchiveStats,
  type ArchiveTrim,
  type LogEntry,
  type TranscriptArchive,
} from '@pty-ws/ports';
import { qualified, toMillis } from './sql';

/** Chunks fetched per round trip while reading a range. */
const READ_BATCH = 8;
/** Sessions whose newest archived sequence is remembered; past it the memory starts over. */
const KNOWN_LAST_MAX = 10_000;

/**
 * The cluster TranscriptArchive on table `transcript_chunks`: one row per chunk (the shared
 * versioned codec of transcript-chunk.ts), keyed by (session, first sequence). An insert only lands when the session's
 * newest archived sequence is still the one the run continues, so the archive stays gapless even
 * if two agents briefly believed they owned a session; the loser gets SequenceConflictError.
 */
export class PgTranscriptArchive implements TranscriptArchive {
  private readonly table: string;
  /**
   * The newest sequence this process archived per session. The owner is the only writer, so its
   * next chunk continues from there without asking the table first (one query per chunk instead of
   * two: 50 sessions typing archive 50 chunks a second). The insert's guard still checks it, and a
   * refused insert or a gap asks the table.
   */
  private readonly knownLast = new Map<string, number>();

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.table = qualified(schema, 'transcript_chunks');
  }

  async append(sessionId: string, entries: readonly LogEntry[]): Promise<void> {
    const remembered = this.knownLast.get(sessionId);
    if (remembered !== undefined && (await this.tryAppend(sessionId, entries, remembered, 'remembered'))) return;
    if (await this.tryAppend(sessionId, entries, await this.lastSeq(sessionId), 'read')) return;
    // Someone else's chunk landed meanwhile: judge the run again against it (once).
    await this.tryAppend(sessionId, entries, await this.lastSeq(sessionId), 'read again');
  }

  /**
   * One insert of the run that continues `lastSeq`: true once the entries are archived (or were
   * already), false when `lastSeq` turned out not to be the table's head. A gap, or a second
   * refusal, against a head read from the table is a SequenceConflictError; against the
   * remembered one it only means the memory is stale.
   */
  private async tryAppend(
    sessionId: string,
    entries: readonly LogEntry[],
    lastSeq: number,
    head: 'remembered' | 'read' | 'read again',
  ): Promise<boolean> {
    const accepted = acceptedRun(lastSeq, entries);
    if ('gap' in accepted) {
      if (head === 'remembered') return false;
      throw new SequenceConflictError(sessionId, accepted.gap.expected, accepted.gap.got);
    }
    if (accepted.run.length === 0) return true;
    const chunk = await encodeChunk(accepted.run);
    const r = await this.pool.query(
      `INSERT INTO ${this.table} (session_id, first_seq, last_seq, first_ts, last_ts, frames, data)
       SELECT $1, $2, $3, $4, $5, $6, $7
       WHERE COALESCE((SELECT max(last_seq) FROM ${this.table} WHERE session_id = $1), 0) = $8
       ON CONFLICT (session_id, first_seq) DO NOTHING`,
      [sessionId, chunk.firstSeq, chunk.lastSeq, chunk.firstTs, chunk.lastTs, chunk.frames, chunk.data, lastSeq],
    );
    if (r.rowCount === 1) {
      this.remember(sessionId, chunk.lastSeq);
      return true;
    }
    this.knownLast.delete(sessionId);
    if (head === 'read again') {
      throw new SequenceConflictError(sessionId, (await this.lastSeq(sessionId)) + 1, chunk.firstSeq);
    }
    return false;
  }

  private remember(sessionId: string, lastSeq: number): void {
    if (this.knownLast.size >= KNOWN_LAST_MAX && !this.knownLast.has(sessionId)) this.knownLast.clear();
    this.knownLast.set(sessionId, lastSeq);
  }

  async read(sessionId: string, afterSeq: number, opts: { toSeq?: number; limit?: number } = {}): Promise<LogEntry[]> {
    if (opts.limit !== undefined && opts.limit <= 0) return [];
    const out: LogEntry[] = [];
    let after = afterSeq;
    for (;;) {
      const r = await this.pool.query<{ last_seq: string; data: Buffer }>(
        `SELECT last_seq, data FROM ${this.table}
         WHERE session_id = $1 AND last_seq > $2 AND ($3::bigint IS NULL OR first_seq <= $3)
         ORDER BY first_seq LIMIT ${READ_BATCH}`,
        [sessionId, after, opts.toSeq ?? null],
      );
      for (const row of r.rows) {
        const limit = opts.limit === undefined ? undefined : opts.limit - out.length;
        out.push(
          ...selectRange(await decodeChunk(row.data), after, { ...opts, ...(limit !== undefined ? { limit } : {}) }),
        );
        if (opts.limit !== undefined && out.length >= opts.limit) return out;
        after = toMillis(row.last_seq);
      }
      if (r.rows.length < READ_BATCH) return out;
    }
  }

  async stats(sessionId: string): Promise<ArchiveStats> {
    const r = await this.pool.query<{
      first: string | null;
      last: string | null;
      chunks: string;
      bytes: string | null;
    }>(
      `SELECT min(first_seq) AS first, max(last_seq) AS last, count(*) AS chunks, sum(octet_length(data)) AS bytes
       FROM ${this.table} WHERE session_id = $1`,
      [sessionId],
    );
    const row = r.rows[0];
    if (!row || row.first === null || row.last === null) return { ...EMPTY_ARCHIVE_STATS };
    const firstSeq = toMillis(row.first);
    const lastSeq = toMillis(row.last);
    return {
      firstSeq,
      lastSeq,
      frames: lastSeq - firstSeq + 1,
      chunks: toMillis(row.chunks),
      bytes: toMillis(row.bytes ?? 0),
    };
  }

  async remove(sessionId: string): Promise<void> {
    this.knownLast.delete(sessionId);
    await this.pool.query(`DELETE FROM ${this.table} WHERE session_id = $1`, [sessionId]);
  }

  /** One statement: the chunks whose newer chunks (themselves included) pass `keepBytes`, but never the newest. */
  async dropOldest(sessionId: string, keepBytes: number): Promise<ArchiveTrim> {
    const r = await this.pool.query<{ frames: string | null; bytes: string | null; chunks: string }>(
      `WITH sized AS (
         SELECT first_seq, sum(octet_length(data)) OVER (ORDER BY first_seq DESC) AS newer_bytes,
                row_number() OVER (ORDER BY first_seq DESC) AS newest_rank
         FROM ${this.table} WHERE session_id = $1
       ), gone AS (
         DELETE FROM ${this.table} t USING sized s
         WHERE t.session_id = $1 AND t.first_seq = s.first_seq AND s.newer_bytes > $2 AND s.newest_rank > 1
         RETURNING t.frames, octet_length(t.data) AS bytes
       )
       SELECT sum(frames) AS frames, sum(bytes) AS bytes, count(*) AS chunks FROM gone`,
      [sessionId, keepBytes],
    );
    const row = r.rows[0];
    const after = await this.stats(sessionId);
    return {
      chunks: toMillis(row?.chunks ?? 0),
      frames: toMillis(row?.frames ?? 0),
      bytes: toMillis(row?.bytes ?? 0),
      remainingBytes: after.bytes,
      firstSeq: after.firstSeq,
    };
  }

  private async lastSeq(sessionId: string): Promise<number> {
    const r = await this.pool.query<{ last: string | null }>(
      `SELECT max(last_seq) AS last FROM ${this.table} WHERE session_id = $1`,
      [sessionId],
    );
    return toMillis(r.rows[0]?.last ?? 0);
  }
}
