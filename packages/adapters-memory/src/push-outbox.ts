import type { NewPushOutboxEntry, PushOutbox, PushOutboxEntry } from '@pty-ws/ports';

/**
 * The in-process PushOutbox: survives nothing, so notifications still pending when the process
 * exits are lost. For tests and embedders; single-node mode uses FilePushOutbox.
 */
export class MemoryPushOutbox implements PushOutbox {
  private readonly entries = new Map<string, PushOutboxEntry>();
  private next = 1;

  async add(entry: NewPushOutboxEntry): Promise<string> {
    const id = String(this.next++);
    this.entries.set(id, { ...structuredClone(entry), id });
    return id;
  }

  async remove(id: string): Promise<void> {
    this.entries.delete(id);
  }

  async pending(owner: string): Promise<PushOutboxEntry[]> {
    // Map iteration is insertion order: the order of the adds.
    return [...this.entries.values()].filter((e) => e.owner === owner).map((e) => structuredClone(e));
  }
}
