import type { Pool } from 'pg';
import {
  AuditBatcher,
  auditRecordFromJson,
  auditRecordToJson,
  type AuditBatcherOptions,
  type AuditEvent,
  type AuditLog,
  type AuditQuery,
  type AuditRecordJson,
  type StoredAuditEvent,
} from '@pty-ws/ports';
import { qualified, toMillis } from './sql';

/** A row as pg returns it: the stored record, with bigints as strings. */
type AuditRow = Omit<AuditRecordJson, 'at'> & { id: string; at: string };

export type PgAuditOptions = Pick<AuditBatcherOptions, 'flushIntervalMs' | 'maxBatch' | 'maxQueued' | 'onProblem'>;

/**
 * AuditLog on table `audit_log` (cluster mode): every edge appends its own events, batched into one
 * INSERT … SELECT FROM jsonb_to_recordset per batch (one round trip, one parameter; rows are
 * produced, and numbered, in array order). The identity column orders the events of all edges by
 * insertion, which is what paging by `afterId` needs.
 */
export class PgAuditLog implements AuditLog {
  private readonly table: string;
  private readonly batcher: AuditBatcher;

  constructor(
    private readonly pool: Pool,
    schema: string,
    opts: PgAuditOptions = {},
  ) {
    this.table = qualified(schema, 'audit_log');
    this.batcher = new AuditBatcher({ ...opts, write: (batch) => this.write(batch) });
  }

  record(event: AuditEvent): void {
    this.batcher.record(event);
  }

  flush(): Promise<void> {
    return this.batcher.flush();
  }

  async query(q: AuditQuery): Promise<StoredAuditEvent[]> {
    await this.flush();
    const r = await this.pool.query<AuditRow>(
      `SELECT id, at, type, instance_id, session_id, principal, client_id, edge_id, disclosure, detail
         FROM ${this.table}
        WHERE instance_id = $1
          AND ($2::text IS NULL OR session_id = $2)
          AND ($3::text IS NULL OR principal = $3)
          AND ($4::bigint IS NULL OR at >= $4)
          AND ($5::bigint IS NULL OR id > $5)
        ORDER BY id
        LIMIT $6`,
      [q.instanceId, q.sessionId ?? null, q.principal ?? null, q.since ?? null, q.afterId ?? null, q.limit],
    );
    return r.rows.map(fromRow);
  }

  /** Flushes; the pool belongs to the caller. */
  close(): Promise<void> {
    return this.flush();
  }

  private async write(batch: readonly AuditEvent[]): Promise<void> {
    const rows = batch.map(auditRecordToJson);
    await this.pool.query(
      `INSERT INTO ${this.table} (at, type, instance_id, session_id, principal, client_id, edge_id, disclosure, detail)
       SELECT at, type, instance_id, session_id, principal, client_id, edge_id, disclosure, detail
         FROM jsonb_to_recordset($1::jsonb) AS x(
              at bigint, type text, instance_id text, session_id text, principal text,
              client_id text, edge_id text, disclosure boolean, detail jsonb)`,
      [JSON.stringify(rows)],
    );
  }
}

function fromRow(row: AuditRow): StoredAuditEvent {
  return auditRecordFromJson(toMillis(row.id), { ...row, at: toMillis(row.at) });
}
