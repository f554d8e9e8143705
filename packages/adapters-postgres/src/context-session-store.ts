import type { Pool } from 'pg';
import type { ContextSessionRecord, ContextSessionStore } from '@pty-ws/ports';
import { qualified, toMillis } from './sql';

interface ContextRow {
  instance_id: string;
  context_id: string;
  session_id: string;
  principal_id: string;
  created_at: string;
  last_used_at: string;
}

const COLUMNS = 'instance_id, context_id, session_id, principal_id, created_at, last_used_at';

/**
 * ContextSessionStore on table `a2a_contexts`, keyed by (instance_id, context_id): every edge
 * sees the same bindings. A claim is one `INSERT … ON CONFLICT DO NOTHING`, so of two edges
 * claiming one context the primary key picks the winner; touch and release are single
 * conditional statements.
 */
export class PgContextSessionStore implements ContextSessionStore {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.table = qualified(schema, 'a2a_contexts');
  }

  async claim(r: ContextSessionRecord): Promise<{ record: ContextSessionRecord; claimed: boolean }> {
    for (;;) {
      const inserted = await this.pool.query<ContextRow>(
        `INSERT INTO ${this.table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (instance_id, context_id) DO NOTHING RETURNING ${COLUMNS}`,
        [r.instanceId, r.contextId, r.sessionId, r.principalId, r.createdAt, r.lastUsedAt],
      );
      if (inserted.rows[0]) return { record: fromRow(inserted.rows[0]), claimed: true };
      const held = await this.get(r.instanceId, r.contextId);
      // Released between the two statements: claim again.
      if (held) return { record: held, claimed: false };
    }
  }

  async get(instanceId: string, contextId: string): Promise<ContextSessionRecord | undefined> {
    const r = await this.pool.query<ContextRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE instance_id = $1 AND context_id = $2`,
      [instanceId, contextId],
    );
    return r.rows[0] && fromRow(r.rows[0]);
  }

  async touch(instanceId: string, contextId: string, sessionId: string, at: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE ${this.table} SET last_used_at = GREATEST(last_used_at, $4)
       WHERE instance_id = $1 AND context_id = $2 AND session_id = $3`,
      [instanceId, contextId, sessionId, at],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async idle(before: number, limit: number): Promise<ContextSessionRecord[]> {
    const r = await this.pool.query<ContextRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE last_used_at < $1 ORDER BY last_used_at LIMIT $2`,
      [before, limit],
    );
    return r.rows.map(fromRow);
  }

  async release(instanceId: string, contextId: string, sessionId: string, lastUsedAt: number): Promise<boolean> {
    const r = await this.pool.query(
      `DELETE FROM ${this.table}
       WHERE instance_id = $1 AND context_id = $2 AND session_id = $3 AND last_used_at = $4`,
      [instanceId, contextId, sessionId, lastUsedAt],
    );
    return (r.rowCount ?? 0) > 0;
  }
}

function fromRow(row: ContextRow): ContextSessionRecord {
  return {
    instanceId: row.instance_id,
    contextId: row.context_id,
    sessionId: row.session_id,
    principalId: row.principal_id,
    createdAt: toMillis(row.created_at),
    lastUsedAt: toMillis(row.last_used_at),
  };
}
