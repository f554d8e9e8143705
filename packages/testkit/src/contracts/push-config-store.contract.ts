import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { PushConfigRecord, PushConfigStore } from '@pty-ws/ports';
import { uniqueId } from './support';

export interface PushConfigStoreFixture {
  store: PushConfigStore;
  cleanup(): Promise<void>;
}

const T0 = 1_700_000_000_000;

/** The PushConfigStore contract (ports/src/push-configs.ts). */
export function pushConfigStoreContract(name: string, makeStore: () => Promise<PushConfigStoreFixture>): void {
  describe(`PushConfigStore contract: ${name}`, () => {
    let fixture: PushConfigStoreFixture;
    let store: PushConfigStore;
    let taskId: string;
    let instanceId: string;

    const config = (extra: Partial<PushConfigRecord> = {}): PushConfigRecord => ({
      taskId,
      configId: uniqueId('config'),
      instanceId,
      url: 'https://hooks.example/a2a',
      createdAt: T0,
      ...extra,
    });

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
      taskId = uniqueId('task');
      instanceId = uniqueId('instance');
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('stores and returns a config with its token and authentication', async () => {
      const c = config({ token: 'tok-1', authentication: { scheme: 'Bearer', credentials: 's3cret' } });
      await store.put(c);
      expect(await store.get(taskId, c.configId)).toEqual(c);
    });

    it('keeps optional fields absent when not given', async () => {
      const c = config();
      await store.put(c);
      const got = await store.get(taskId, c.configId);
      expect(got).toEqual(c);
      expect(got && 'token' in got).toBe(false);
      expect(got && 'authentication' in got).toBe(false);
    });

    it('returns undefined for an unknown task or config', async () => {
      const c = config();
      await store.put(c);
      expect(await store.get(uniqueId('task'), c.configId)).toBeUndefined();
      expect(await store.get(taskId, uniqueId('config'))).toBeUndefined();
    });

    it('replaces a config with the same id, keeping its first creation time', async () => {
      const c = config({ token: 'old' });
      await store.put(c);
      await store.put({ ...c, url: 'https://other.example/hook', token: 'new', createdAt: T0 + 500 });
      expect(await store.get(taskId, c.configId)).toEqual({
        ...c,
        url: 'https://other.example/hook',
        token: 'new',
        createdAt: T0,
      });
      expect(await store.list(taskId)).toHaveLength(1);
    });

    it("lists one task's configs oldest first, ties by config id", async () => {
      const late = config({ configId: 'a', createdAt: T0 + 10 });
      const tieB = config({ configId: 'c', createdAt: T0 });
      const tieA = config({ configId: 'b', createdAt: T0 });
      const otherTask = config({ taskId: uniqueId('task') });
      for (const c of [late, tieB, tieA, otherTask]) await store.put(c);
      expect((await store.list(taskId)).map((c) => c.configId)).toEqual(['b', 'c', 'a']);
      expect(await store.list(uniqueId('task'))).toEqual([]);
    });

    it('deletes one config and says whether it existed', async () => {
      const a = config();
      const b = config();
      await store.put(a);
      await store.put(b);
      expect(await store.delete(taskId, a.configId)).toBe(true);
      expect(await store.delete(taskId, a.configId)).toBe(false);
      expect(await store.get(taskId, a.configId)).toBeUndefined();
      expect((await store.list(taskId)).map((c) => c.configId)).toEqual([b.configId]);
    });

    it('hands out copies: mutating a returned record changes nothing stored', async () => {
      const c = config({ authentication: { scheme: 'Basic', credentials: 'dXNlcjpwdw==' } });
      await store.put(c);
      const got = (await store.get(taskId, c.configId))!;
      got.url = 'https://mutated.example';
      got.authentication!.scheme = 'Mutated';
      expect(await store.get(taskId, c.configId)).toEqual(c);
    });
  });
}
