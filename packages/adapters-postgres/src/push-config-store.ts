import type { Pool } from 'pg';
import type { PushAuthentication, PushConfigRecord, PushConfigStore } from '@pty-ws/ports';
import { qualified, toMillis } from './sql';

interface PushConfigRow {
  task_id: string;
  config_id: string;
  instance_id: string;
  url: string;
  token: string | null;
  authentication: PushAuthentication | null;
  created_at: string;
}

const COLUMNS = 'task_id, config_id, instance_id, url, token, authentication, created_at';

/**
 * PushConfigStore on table `push_configs`, keyed by (task_id, config_id). `put` is one upsert
 * that keeps the first `created_at`, so a replaced config keeps its place in the list order.
 */
export class PgPushConfigStore implements PushConfigStore {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.table = qualified(schema, 'push_configs');
  }

  async put(r: PushConfigRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (task_id, config_id) DO UPDATE SET
         instance_id = EXCLUDED.instance_id, url = EXCLUDED.url, token = EXCLUDED.token,
         authentication = EXCLUDED.authentication`,
      [
        r.taskId,
        r.configId,
        r.instanceId,
        r.url,
        r.token ?? null,
        r.authentication ? JSON.stringify(r.authentication) : null,
        r.createdAt,
      ],
    );
  }

  async get(taskId: string, configId: string): Promise<PushConfigRecord | undefined> {
    const r = await this.pool.query<PushConfigRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE task_id = $1 AND config_id = $2`,
      [taskId, configId],
    );
    return r.rows[0] && fromRow(r.rows[0]);
  }

  async list(taskId: string): Promise<PushConfigRecord[]> {
    const r = await this.pool.query<PushConfigRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE task_id = $1 ORDER BY created_at, config_id`,
      [taskId],
    );
    return r.rows.map(fromRow);
  }

  async delete(taskId: string, configId: string): Promise<boolean> {
    const r = await this.pool.query(`DELETE FROM ${this.table} WHERE task_id = $1 AND config_id = $2`, [
      taskId,
      configId,
    ]);
    return (r.rowCount ?? 0) > 0;
  }
}

function fromRow(row: PushConfigRow): PushConfigRecord {
  const record: PushConfigRecord = {
    taskId: row.task_id,
    configId: row.config_id,
    instanceId: row.instance_id,
    url: row.url,
    createdAt: toMillis(row.created_at),
  };
  if (row.token !== null) record.token = row.token;
  if (row.authentication !== null) record.authentication = row.authentication;
  return record;
}
