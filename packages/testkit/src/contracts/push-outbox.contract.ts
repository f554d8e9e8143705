import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { NewPushOutboxEntry, PushOutbox } from '@pty-ws/ports';
import { uniqueId } from './support';

export interface PushOutboxFixture {
  outbox: PushOutbox;
  /**
   * A second outbox over the same storage, as a restarted process would open it (absent for
   * storage that does not outlive the instance: the durability case is skipped).
   */
  reopen?(): Promise<PushOutbox>;
  cleanup(): Promise<void>;
}

const T0 = 1_700_000_000_000;

/** The PushOutbox contract (ports/src/push-outbox.ts). */
export function pushOutboxContract(name: string, makeOutbox: () => Promise<PushOutboxFixture>): void {
  describe(`PushOutbox contract: ${name}`, () => {
    let fixture: PushOutboxFixture;
    let outbox: PushOutbox;
    let owner: string;

    const entry = (extra: Partial<NewPushOutboxEntry> = {}): NewPushOutboxEntry => ({
      owner,
      taskId: uniqueId('task'),
      configId: 'cfg',
      url: 'https://hooks.example/a2a',
      body: JSON.stringify({ status_update: { task_id: 't', final: false } }),
      createdAt: T0,
      ...extra,
    });

    beforeEach(async () => {
      fixture = await makeOutbox();
      outbox = fixture.outbox;
      owner = uniqueId('agent');
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('returns what was added, with credentials, and leaves optional fields absent', async () => {
      const full = entry({ token: 'tok', authentication: { scheme: 'Bearer', credentials: 's3cret' } });
      const bare = entry();
      const a = await outbox.add(full);
      const b = await outbox.add(bare);
      expect(a).not.toBe(b);
      const got = await outbox.pending(owner);
      expect(got).toEqual([
        { ...full, id: a },
        { ...bare, id: b },
      ]);
      expect('token' in got[1]!).toBe(false);
      expect('authentication' in got[1]!).toBe(false);
    });

    it("keeps one owner's entries in the order they were added", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await outbox.add(entry({ body: `{"n":${i}}` })));
      expect((await outbox.pending(owner)).map((e) => e.body)).toEqual(ids.map((_, i) => `{"n":${i}}`));
    });

    it('pending is scoped to the owner', async () => {
      const other = uniqueId('agent');
      await outbox.add(entry());
      await outbox.add(entry({ owner: other }));
      expect((await outbox.pending(owner)).map((e) => e.owner)).toEqual([owner]);
      expect((await outbox.pending(other)).map((e) => e.owner)).toEqual([other]);
      expect(await outbox.pending(uniqueId('agent'))).toEqual([]);
    });

    it('remove deletes one entry and is idempotent', async () => {
      const a = await outbox.add(entry({ body: '"a"' }));
      const b = await outbox.add(entry({ body: '"b"' }));
      await outbox.remove(a);
      await outbox.remove(a);
      await outbox.remove('999999999');
      expect((await outbox.pending(owner)).map((e) => e.id)).toEqual([b]);
    });

    it('hands out copies: mutating a returned entry changes nothing stored', async () => {
      await outbox.add(entry({ authentication: { scheme: 'Basic', credentials: 'x' } }));
      const [got] = await outbox.pending(owner);
      got!.authentication!.scheme = 'Mutated';
      got!.url = 'https://mutated.example';
      const [again] = await outbox.pending(owner);
      expect(again!.authentication!.scheme).toBe('Basic');
      expect(again!.url).toBe('https://hooks.example/a2a');
    });

    it('what was added and not removed outlives the instance (restart)', async () => {
      if (!fixture.reopen) return; // storage that dies with the instance (documented as such)
      const kept = await outbox.add(entry({ body: '"kept"', token: 't' }));
      const gone = await outbox.add(entry({ body: '"gone"' }));
      await outbox.remove(gone);
      const restarted = await fixture.reopen();
      const pending = await restarted.pending(owner);
      expect(pending.map((e) => [e.id, e.body, e.token])).toEqual([[kept, '"kept"', 't']]);
      // New ids after a restart never collide with surviving ones, and keep the order.
      const later = await restarted.add(entry({ body: '"later"' }));
      expect((await restarted.pending(owner)).map((e) => e.id)).toEqual([kept, later]);
    });
  });
}
