import type { SessionRecord, SessionRegistry, SessionState } from '@pty-ws/ports';

/**
 * The embedded SessionRegistry. Records are copied in and out so a caller holding one cannot
 * change the registry by accident; `update` is atomic because this process is the only writer.
 */
export class MemorySessionRegistry implements SessionRegistry {
  private readonly records = new Map<string, SessionRecord>();

  async put(record: SessionRecord): Promise<void> {
    this.records.set(record.sessionId, structuredClone(record));
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const record = this.records.get(sessionId);
    return record && structuredClone(record);
  }

  /** In insertion order (a `put` that replaces keeps the original place). */
  async list(filter: { instanceId?: string; state?: SessionState } = {}): Promise<SessionRecord[]> {
    const out: SessionRecord[] = [];
    for (const record of this.records.values()) {
      if (filter.instanceId !== undefined && record.instanceId !== filter.instanceId) continue;
      if (filter.state !== undefined && record.state !== filter.state) continue;
      out.push(structuredClone(record));
    }
    return out;
  }

  async update(
    sessionId: string,
    patch: Partial<Omit<SessionRecord, 'sessionId'>>,
  ): Promise<SessionRecord | undefined> {
    const current = this.records.get(sessionId);
    if (!current) return undefined;
    // sessionId is re-asserted: the type forbids patching it, but a cast-through object could still carry one.
    const next: SessionRecord = { ...current, ...structuredClone(patch), sessionId };
    this.records.set(sessionId, next);
    return structuredClone(next);
  }

  async delete(sessionId: string): Promise<void> {
    this.records.delete(sessionId);
  }
}
