import type { Pool } from 'pg';
import type { NewPushOutboxEntry, PushAuthentication, PushOutbox, PushOutboxEntry } from '@pty-ws/ports';
import { qualified, toMillis } from './sql';

interface OutboxRow {
  id: string;
  owner: string;
  task_id: string;
  config_id: string;
  url: string;
  token: string | null;
  authentication: PushAuthentication | null;
  body: string;
  created_at: string;
}

/**
 * PushOutbox on table `push_outbox`. Ids come from an identity column, so one owner's rows read
 * back in the order their inserts committed (the deliverer issues its adds one at a time).
 */
export class PgPushOutbox implements PushOutbox {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.table = qualified(schema, 'push_outbox');
  }

  async add(e: NewPushOutboxEntry): Promise<string> {
    const r = await this.pool.query<{ id: string }>(
      `INSERT INTO ${this.table} (owner, task_id, config_id, url, token, authentication, body, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        e.owner,
        e.taskId,
        e.configId,
        e.url,
        e.token ?? null,
        e.authentication ? JSON.stringify(e.authentication) : null,
        e.body,
        e.createdAt,
      ],
    );
    return String(r.rows[0]!.id);
  }

  async remove(id: string): Promise<void> {
    if (!/^\d+$/.test(id)) return; // not an id this outbox handed out
    await this.pool.query(`DELETE FROM ${this.table} WHERE id = $1`, [id]);
  }

  async pending(owner: string): Promise<PushOutboxEntry[]> {
    const r = await this.pool.query<OutboxRow>(
      `SELECT id, owner, task_id, config_id, url, token, authentication, body, created_at
       FROM ${this.table} WHERE owner = $1 ORDER BY id`,
      [owner],
    );
    return r.rows.map(fromRow);
  }
}

function fromRow(row: OutboxRow): PushOutboxEntry {
  const e: PushOutboxEntry = {
    id: String(row.id),
    owner: row.owner,
    taskId: row.task_id,
    configId: row.config_id,
    url: row.url,
    body: row.body,
    createdAt: toMillis(row.created_at),
  };
  if (row.token !== null) e.token = row.token;
  if (row.authentication !== null) e.authentication = row.authentication;
  return e;
}
