import type { Pool } from 'pg';
import type { SessionRecord, SessionRegistry, SessionState } from '@pty-ws/ports';
import { qualified } from './sql';

type Patch = Partial<Omit<SessionRecord, 'sessionId'>>;

/**
 * SessionRegistry on table `sessions`: the record as jsonb, plus the columns it is listed by.
 * Every method is one statement, so `update` is atomic (the row lock serializes writers) without
 * a transaction round trip.
 */
export class PgSessionRegistry implements SessionRegistry {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.table = qualified(schema, 'sessions');
  }

  async put(record: SessionRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.table} (session_id, instance_id, agent_id, state, record)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (session_id) DO UPDATE SET
         instance_id = EXCLUDED.instance_id, agent_id = EXCLUDED.agent_id,
         state = EXCLUDED.state, record = EXCLUDED.record`,
      [record.sessionId, record.instanceId, record.agentId, record.state, JSON.stringify(record)],
    );
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const r = await this.pool.query<{ record: SessionRecord }>(
      `SELECT record FROM ${this.table} WHERE session_id = $1`,
      [sessionId],
    );
    return r.rows[0]?.record;
  }

  /** In insertion order (a `put` that replaces keeps the original place). */
  async list(filter: { instanceId?: string; state?: SessionState } = {}): Promise<SessionRecord[]> {
    const r = await this.pool.query<{ record: SessionRecord }>(
      `SELECT record FROM ${this.table}
       WHERE ($1::text IS NULL OR instance_id = $1) AND ($2::text IS NULL OR state = $2)
       ORDER BY position`,
      [filter.instanceId ?? null, filter.state ?? null],
    );
    return r.rows.map((row) => row.record);
  }

  /**
   * Shallow merge, like the memory registry: keys set to undefined are removed (JSON has no
   * undefined), the rest replace; `sessionId` is never patched.
   */
  async update(sessionId: string, patch: Patch): Promise<SessionRecord | undefined> {
    const set: Record<string, unknown> = {};
    const unset: string[] = [];
    for (const [key, value] of Object.entries(patch)) {
      if (key === 'sessionId') continue;
      if (value === undefined) unset.push(key);
      else set[key] = value;
    }
    const r = await this.pool.query<{ record: SessionRecord }>(
      `UPDATE ${this.table} SET
         record = (record - $2::text[]) || $3::jsonb,
         instance_id = COALESCE($3::jsonb->>'instanceId', instance_id),
         agent_id = COALESCE($3::jsonb->>'agentId', agent_id),
         state = COALESCE($3::jsonb->>'state', state)
       WHERE session_id = $1
       RETURNING record`,
      [sessionId, unset, JSON.stringify(set)],
    );
    return r.rows[0]?.record;
  }

  async delete(sessionId: string): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.table} WHERE session_id = $1`, [sessionId]);
  }
}
