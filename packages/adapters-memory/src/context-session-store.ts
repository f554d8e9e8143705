import type { ContextSessionRecord, ContextSessionStore } from '@pty-ws/ports';

const keyOf = (instanceId: string, contextId: string) => JSON.stringify([instanceId, contextId]);

/** The embedded ContextSessionStore: one map, records copied in and out. */
export class MemoryContextSessionStore implements ContextSessionStore {
  private readonly bindings = new Map<string, ContextSessionRecord>();

  async claim(record: ContextSessionRecord): Promise<{ record: ContextSessionRecord; claimed: boolean }> {
    const key = keyOf(record.instanceId, record.contextId);
    const held = this.bindings.get(key);
    if (held) return { record: { ...held }, claimed: false };
    this.bindings.set(key, { ...record });
    return { record: { ...record }, claimed: true };
  }

  async get(instanceId: string, contextId: string): Promise<ContextSessionRecord | undefined> {
    const r = this.bindings.get(keyOf(instanceId, contextId));
    return r && { ...r };
  }

  async touch(instanceId: string, contextId: string, sessionId: string, at: number): Promise<boolean> {
    const r = this.bindings.get(keyOf(instanceId, contextId));
    if (!r || r.sessionId !== sessionId) return false;
    r.lastUsedAt = Math.max(r.lastUsedAt, at);
    return true;
  }

  async idle(before: number, limit: number): Promise<ContextSessionRecord[]> {
    return [...this.bindings.values()]
      .filter((r) => r.lastUsedAt < before)
      .sort((a, b) => a.lastUsedAt - b.lastUsedAt)
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }

  async release(instanceId: string, contextId: string, sessionId: string, lastUsedAt: number): Promise<boolean> {
    const key = keyOf(instanceId, contextId);
    const r = this.bindings.get(key);
    if (!r || r.sessionId !== sessionId || r.lastUsedAt !== lastUsedAt) return false;
    return this.bindings.delete(key);
  }
}
