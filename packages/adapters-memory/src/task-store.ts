import type { TaskPage, TaskRecord, TaskStore } from '@pty-ws/ports';
import { decodePageToken, encodePageToken, type TaskCursor } from '@pty-ws/ports';

export interface TaskFilter {
  sessionId?: string;
  instanceId?: string;
  state?: string;
  contextId?: string;
}

/** Oldest-first order on (createdAt, taskId); the id breaks ties so the order is total. */
function compare(a: TaskCursor, b: TaskCursor): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0;
}

const cursorOf = (r: TaskRecord): TaskCursor => ({ createdAt: r.createdAt, taskId: r.task.id });

function matches(r: TaskRecord, f: TaskFilter): boolean {
  return (
    (f.sessionId === undefined || r.sessionId === f.sessionId) &&
    (f.instanceId === undefined || r.instanceId === f.instanceId) &&
    (f.state === undefined || r.task.status.state === f.state) &&
    (f.contextId === undefined || r.task.context_id === f.contextId)
  );
}

/**
 * The embedded TaskStore. Records are copied in and out.
 *
 * `update` is compare-and-set on `updatedAt`, and always advances it (to at least
 * `expectedUpdatedAt + 1`): two writers reading the same record within one millisecond would
 * otherwise both write the same `updatedAt` and the second would overwrite the first unnoticed.
 * Use the returned record's `updatedAt` for the next update. `createdAt`, `sessionId` and
 * `instanceId` are fixed at insert (a task never moves); an update cannot change them.
 */
export class MemoryTaskStore implements TaskStore {
  private readonly byId = new Map<string, TaskRecord>();
  /** Task ids sorted oldest first, so a page is a walk backwards from a binary-searched start. */
  private readonly order: string[] = [];

  async insert(record: TaskRecord): Promise<void> {
    const id = record.task.id;
    if (this.byId.has(id)) throw new Error(`task ${id} already exists`);
    this.byId.set(id, structuredClone(record));
    this.order.splice(this.firstIndexAfter(cursorOf(record)), 0, id);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.byId.get(taskId);
    return record && structuredClone(record);
  }

  async update(record: TaskRecord, expectedUpdatedAt: number): Promise<TaskRecord | undefined> {
    const current = this.byId.get(record.task.id);
    if (!current || current.updatedAt !== expectedUpdatedAt) return undefined;
    const next: TaskRecord = {
      ...structuredClone(record),
      createdAt: current.createdAt,
      sessionId: current.sessionId,
      instanceId: current.instanceId,
      updatedAt: Math.max(record.updatedAt, expectedUpdatedAt + 1),
    };
    this.byId.set(record.task.id, next);
    return structuredClone(next);
  }

  async list(filter: TaskFilter, pageSize: number, pageToken?: string): Promise<TaskPage> {
    const size = Math.max(1, Math.floor(pageSize));
    // Everything strictly older than the cursor; without one (or an empty one, proto3's "unset"), from the newest.
    let i = !pageToken ? this.order.length - 1 : this.firstIndexAtOrAfter(decodePageToken(pageToken)) - 1;
    const tasks: TaskRecord[] = [];
    for (; i >= 0; i--) {
      const record = this.recordAt(i);
      if (!matches(record, filter)) continue;
      if (tasks.length === size) {
        // One more match exists, so the page has a successor.
        const last = tasks[tasks.length - 1] as TaskRecord;
        return { tasks, nextPageToken: encodePageToken(cursorOf(last)) };
      }
      tasks.push(structuredClone(record));
    }
    return { tasks };
  }

  private recordAt(index: number): TaskRecord {
    // `order` and `byId` always hold the same ids.
    return this.byId.get(this.order[index] as string) as TaskRecord;
  }

  /** Index of the first task ordered after `key` (insertion point keeping equal keys stable). */
  private firstIndexAfter(key: TaskCursor): number {
    return this.search((c) => c > 0, key);
  }

  /** Index of the first task ordered at or after `key`. */
  private firstIndexAtOrAfter(key: TaskCursor): number {
    return this.search((c) => c >= 0, key);
  }

  private search(isAtOrPast: (comparison: number) => boolean, key: TaskCursor): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (isAtOrPast(compare(cursorOf(this.recordAt(mid)), key))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
