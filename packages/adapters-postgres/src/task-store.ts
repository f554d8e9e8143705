import type { Pool } from 'pg';
import type { TaskPage, TaskRecord, TaskStore } from '@pty-ws/ports';
import type { ServiceParameters, Task } from '@pty-ws/protocol';
import { decodePageToken, encodePageToken } from '@pty-ws/ports';
import { qualified, toMillis, uniqueViolation } from './sql';

export interface TaskFilter {
  sessionId?: string;
  instanceId?: string;
  state?: string;
  contextId?: string;
}

interface TaskRow {
  task: Task;
  service_parameters: ServiceParameters | null;
  session_id: string;
  instance_id: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'task, service_parameters, session_id, instance_id, created_at, updated_at';

/**
 * TaskStore on table `tasks`: the task document plus the columns that filters and the
 * newest-first keyset order use.
 *
 * `update` is compare-and-set in one statement (`WHERE updated_at = expected`; the row lock makes
 * a racing second writer re-check and miss), and always advances `updatedAt` to at least
 * `expectedUpdatedAt + 1`, like the memory store: two writers in one millisecond would otherwise
 * write the same value and the second would not notice the first. `createdAt`, `sessionId` and
 * `instanceId` are fixed at insert.
 */
export class PgTaskStore implements TaskStore {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.table = qualified(schema, 'tasks');
  }

  async insert(record: TaskRecord): Promise<void> {
    const { task } = record;
    try {
      await this.pool.query(
        `INSERT INTO ${this.table}
           (task_id, session_id, instance_id, state, context_id, created_at, updated_at, task, service_parameters)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          task.id,
          record.sessionId,
          record.instanceId,
          task.status.state,
          task.context_id ?? null,
          record.createdAt,
          record.updatedAt,
          JSON.stringify(task),
          jsonOrNull(record.serviceParameters),
        ],
      );
    } catch (error) {
      if (uniqueViolation(error) === undefined) throw error;
      throw new Error(`task ${task.id} already exists`);
    }
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const r = await this.pool.query<TaskRow>(`SELECT ${COLUMNS} FROM ${this.table} WHERE task_id = $1`, [taskId]);
    return r.rows[0] && fromRow(r.rows[0]);
  }

  async update(record: TaskRecord, expectedUpdatedAt: number): Promise<TaskRecord | undefined> {
    const { task } = record;
    const r = await this.pool.query<TaskRow>(
      `UPDATE ${this.table} SET
         task = $3, service_parameters = $4, state = $5, context_id = $6,
         updated_at = GREATEST($7::bigint, $2::bigint + 1)
       WHERE task_id = $1 AND updated_at = $2
       RETURNING ${COLUMNS}`,
      [
        task.id,
        expectedUpdatedAt,
        JSON.stringify(task),
        jsonOrNull(record.serviceParameters),
        task.status.state,
        task.context_id ?? null,
        record.updatedAt,
      ],
    );
    return r.rows[0] && fromRow(r.rows[0]);
  }

  /** Newest first; the page token is the keyset cursor of the page's last task. */
  async list(filter: TaskFilter, pageSize: number, pageToken?: string): Promise<TaskPage> {
    // Like the memory store: at least 1, and a non-finite size means no limit.
    const size = Number.isFinite(pageSize) ? Math.max(1, Math.floor(pageSize)) : null;
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown): void => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.sessionId !== undefined) add('session_id = ?', filter.sessionId);
    if (filter.instanceId !== undefined) add('instance_id = ?', filter.instanceId);
    if (filter.state !== undefined) add('state = ?', filter.state);
    if (filter.contextId !== undefined) add('context_id = ?', filter.contextId);
    // An empty token is proto3's "unset": start from the newest.
    if (pageToken) {
      const cursor = decodePageToken(pageToken);
      params.push(cursor.createdAt, cursor.taskId);
      where.push(`(created_at, task_id) < ($${params.length - 1}::bigint, $${params.length}::text)`);
    }
    // One extra row tells whether a next page exists.
    if (size !== null) params.push(size + 1);
    const r = await this.pool.query<TaskRow>(
      `SELECT ${COLUMNS} FROM ${this.table}
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, task_id DESC
       ${size !== null ? `LIMIT $${params.length}` : ''}`,
      params,
    );
    const tasks = r.rows.map(fromRow);
    if (size === null || tasks.length <= size) return { tasks };
    tasks.length = size;
    const last = tasks[size - 1] as TaskRecord;
    return { tasks, nextPageToken: encodePageToken({ createdAt: last.createdAt, taskId: last.task.id }) };
  }
}

function jsonOrNull(value: ServiceParameters | undefined): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function fromRow(row: TaskRow): TaskRecord {
  const record: TaskRecord = {
    task: row.task,
    sessionId: row.session_id,
    instanceId: row.instance_id,
    createdAt: toMillis(row.created_at),
    updatedAt: toMillis(row.updated_at),
  };
  if (row.service_parameters !== null) record.serviceParameters = row.service_parameters;
  return record;
}
