import type { PushConfigRecord, PushConfigStore } from '@pty-ws/ports';

const copy = (r: PushConfigRecord): PushConfigRecord => structuredClone(r);

/** The embedded PushConfigStore: a map per task, records copied in and out. */
export class MemoryPushConfigStore implements PushConfigStore {
  private readonly byTask = new Map<string, Map<string, PushConfigRecord>>();

  async put(record: PushConfigRecord): Promise<void> {
    let configs = this.byTask.get(record.taskId);
    if (!configs) this.byTask.set(record.taskId, (configs = new Map()));
    const previous = configs.get(record.configId);
    configs.set(record.configId, { ...copy(record), createdAt: previous?.createdAt ?? record.createdAt });
  }

  async get(taskId: string, configId: string): Promise<PushConfigRecord | undefined> {
    const r = this.byTask.get(taskId)?.get(configId);
    return r && copy(r);
  }

  async list(taskId: string): Promise<PushConfigRecord[]> {
    const all = [...(this.byTask.get(taskId)?.values() ?? [])];
    all.sort((a, b) =>
      a.createdAt !== b.createdAt
        ? a.createdAt - b.createdAt
        : a.configId < b.configId
          ? -1
          : a.configId > b.configId
            ? 1
            : 0,
    );
    return all.map(copy);
  }

  async delete(taskId: string, configId: string): Promise<boolean> {
    const configs = this.byTask.get(taskId);
    const removed = configs?.delete(configId) ?? false;
    if (configs && configs.size === 0) this.byTask.delete(taskId);
    return removed;
  }
}
