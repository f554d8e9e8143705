import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ContextSessionRecord, ContextSessionStore } from '@pty-ws/ports';
import { uniqueId } from './support';

export interface ContextSessionStoreFixture {
  store: ContextSessionStore;
  cleanup(): Promise<void>;
}

/** Far in the future, so bindings other tests of a shared store left behind are never "idle" here. */
const T0 = 4_000_000_000_000;

/** The ContextSessionStore contract (ports/src/context-sessions.ts). */
export function contextSessionStoreContract(name: string, makeStore: () => Promise<ContextSessionStoreFixture>): void {
  describe(`ContextSessionStore contract: ${name}`, () => {
    let fixture: ContextSessionStoreFixture;
    let store: ContextSessionStore;
    let instanceId: string;

    const binding = (extra: Partial<ContextSessionRecord> = {}): ContextSessionRecord => ({
      instanceId,
      contextId: uniqueId('context'),
      sessionId: uniqueId('session'),
      principalId: 'principal-1',
      createdAt: T0,
      lastUsedAt: T0,
      ...extra,
    });
    /** The idle bindings of this test's instance (a shared store holds other tests' too). */
    const idleHere = async (before: number) =>
      (await store.idle(before, 1000)).filter((r) => r.instanceId === instanceId);

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
      instanceId = uniqueId('instance');
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('claims an unbound context and returns the binding', async () => {
      const b = binding();
      expect(await store.claim(b)).toEqual({ record: b, claimed: true });
      expect(await store.get(instanceId, b.contextId)).toEqual(b);
      expect(await store.get(instanceId, uniqueId('context'))).toBeUndefined();
      expect(await store.get(uniqueId('instance'), b.contextId)).toBeUndefined();
    });

    it('a second claim of a bound context gets the first binding, not its own', async () => {
      const first = binding();
      await store.claim(first);
      const second = await store.claim({ ...first, sessionId: uniqueId('session'), principalId: 'other' });
      expect(second).toEqual({ record: first, claimed: false });
    });

    it('of concurrent claims of one context exactly one binds it, and all see the same session', async () => {
      const contextId = uniqueId('context');
      const results = await Promise.all(
        Array.from({ length: 8 }, () => store.claim(binding({ contextId, sessionId: uniqueId('session') }))),
      );
      expect(results.filter((r) => r.claimed)).toHaveLength(1);
      expect(new Set(results.map((r) => r.record.sessionId)).size).toBe(1);
    });

    it('the same context id in two instances are two bindings', async () => {
      const a = binding();
      const b = { ...a, instanceId: uniqueId('instance'), sessionId: uniqueId('session') };
      expect((await store.claim(a)).claimed).toBe(true);
      expect((await store.claim(b)).claimed).toBe(true);
      expect((await store.get(b.instanceId, b.contextId))?.sessionId).toBe(b.sessionId);
    });

    it('touch moves lastUsedAt forward only, and only for the bound session', async () => {
      const b = binding();
      await store.claim(b);
      expect(await store.touch(instanceId, b.contextId, b.sessionId, T0 + 500)).toBe(true);
      expect(await store.touch(instanceId, b.contextId, b.sessionId, T0 + 100)).toBe(true);
      expect((await store.get(instanceId, b.contextId))?.lastUsedAt).toBe(T0 + 500);
      expect(await store.touch(instanceId, b.contextId, uniqueId('session'), T0 + 900)).toBe(false);
      expect(await store.touch(instanceId, uniqueId('context'), b.sessionId, T0 + 900)).toBe(false);
      expect((await store.get(instanceId, b.contextId))?.lastUsedAt).toBe(T0 + 500);
    });

    it('idle lists bindings last used before a time, least recently used first, up to a limit', async () => {
      const old = binding({ lastUsedAt: T0 + 1 });
      const older = binding({ lastUsedAt: T0 });
      const fresh = binding({ lastUsedAt: T0 + 10 });
      for (const b of [old, older, fresh]) await store.claim(b);
      expect(await idleHere(T0 + 5)).toEqual([older, old]);
      expect((await store.idle(T0 + 5, 1)).length).toBe(1);
      expect(await idleHere(T0)).toEqual([]);
    });

    it('release removes a binding only while it is unused since then and to that session', async () => {
      const b = binding();
      await store.claim(b);
      expect(await store.release(instanceId, b.contextId, uniqueId('session'), b.lastUsedAt)).toBe(false);
      await store.touch(instanceId, b.contextId, b.sessionId, T0 + 1);
      // A message came after the sweep read the binding: it stays.
      expect(await store.release(instanceId, b.contextId, b.sessionId, b.lastUsedAt)).toBe(false);
      expect(await store.get(instanceId, b.contextId)).toBeDefined();
      expect(await store.release(instanceId, b.contextId, b.sessionId, T0 + 1)).toBe(true);
      expect(await store.get(instanceId, b.contextId)).toBeUndefined();
      expect(await store.release(instanceId, b.contextId, b.sessionId, T0 + 1)).toBe(false);
      // Released: the context can be bound again, to a new session.
      const again = binding({ contextId: b.contextId });
      expect((await store.claim(again)).claimed).toBe(true);
    });
  });
}
