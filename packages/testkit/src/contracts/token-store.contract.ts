import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { TokenRecord, TokenStore } from '@pty-ws/ports';
import { uniqueId } from './support';

export interface TokenStoreFixture {
  store: TokenStore;
  cleanup(): Promise<void>;
}

const T0 = 1_700_000_000_000;

function tokenRecord(instanceId: string, extra: Partial<TokenRecord> = {}): TokenRecord {
  return {
    tokenId: uniqueId('token'),
    // Stands in for a SHA-256 hex digest; unique so tests never collide.
    hash: uniqueId('sha256'),
    scopes: ['pty:observe', 'pty:control'],
    instanceId,
    label: 'contract test',
    createdBy: 'admin',
    createdAt: T0,
    ...extra,
  };
}

/** The TokenStore contract (ports/src/tokens.ts). */
export function tokenStoreContract(name: string, makeStore: () => Promise<TokenStoreFixture>): void {
  describe(`TokenStore contract: ${name}`, () => {
    let fixture: TokenStoreFixture;
    let store: TokenStore;
    let instanceId: string;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
      instanceId = uniqueId('instance');
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('finds an inserted token by hash and by id', async () => {
      const t = tokenRecord(instanceId, { sessionId: 'session-1', expiresAt: T0 + 60_000 });
      await store.insert(t);
      expect(await store.findByHash(t.hash)).toEqual(t);
      expect(await store.get(t.tokenId)).toEqual(t);
    });

    it('returns undefined for an unknown hash or id', async () => {
      expect(await store.findByHash(uniqueId('sha256'))).toBeUndefined();
      expect(await store.get(uniqueId('token'))).toBeUndefined();
    });

    it('rejects a duplicate token id or hash', async () => {
      const t = tokenRecord(instanceId);
      await store.insert(t);
      await expect(store.insert({ ...t, hash: uniqueId('sha256') })).rejects.toThrow();
      await expect(store.insert({ ...t, tokenId: uniqueId('token') })).rejects.toThrow();
      expect(await store.list({ instanceId })).toEqual([t]);
    });

    it('lists by instance', async () => {
      const a = tokenRecord(instanceId);
      const b = tokenRecord(instanceId);
      const elsewhere = tokenRecord(uniqueId('instance'));
      for (const t of [a, b, elsewhere]) await store.insert(t);
      const listed = await store.list({ instanceId });
      expect(listed.map((t) => t.tokenId).sort()).toEqual([a.tokenId, b.tokenId].sort());
      const all = (await store.list()).map((t) => t.tokenId);
      expect(all).toEqual(expect.arrayContaining([a.tokenId, b.tokenId, elsewhere.tokenId]));
    });

    describe('revoke', () => {
      it('returns false for an unknown token', async () => {
        expect(await store.revoke(uniqueId('token'), T0)).toBe(false);
      });

      it('marks the token revoked; lookups still find it so auth can say why it fails', async () => {
        const t = tokenRecord(instanceId);
        await store.insert(t);
        expect(await store.revoke(t.tokenId, T0 + 5)).toBe(true);
        expect((await store.findByHash(t.hash))?.revokedAt).toBe(T0 + 5);
        expect((await store.get(t.tokenId))?.revokedAt).toBe(T0 + 5);
      });

      it('is idempotent: a second revoke succeeds and keeps the first time', async () => {
        const t = tokenRecord(instanceId);
        await store.insert(t);
        await store.revoke(t.tokenId, T0 + 5);
        expect(await store.revoke(t.tokenId, T0 + 9)).toBe(true);
        expect((await store.get(t.tokenId))?.revokedAt).toBe(T0 + 5);
      });

      it('leaves other tokens alone', async () => {
        const a = tokenRecord(instanceId);
        const b = tokenRecord(instanceId);
        await store.insert(a);
        await store.insert(b);
        await store.revoke(a.tokenId, T0 + 5);
        expect((await store.get(b.tokenId))?.revokedAt).toBeUndefined();
      });
    });

    describe('touch', () => {
      it('records the last use', async () => {
        const t = tokenRecord(instanceId);
        await store.insert(t);
        await store.touch(t.tokenId, T0 + 100);
        expect((await store.findByHash(t.hash))?.lastUsedAt).toBe(T0 + 100);
      });

      it('ignores an unknown token', async () => {
        await expect(store.touch(uniqueId('token'), T0)).resolves.toBeUndefined();
      });
    });

    it('is not changed through objects passed in or handed out', async () => {
      const t = tokenRecord(instanceId);
      await store.insert(t);
      t.scopes.push('pty:admin');
      const got = await store.findByHash(t.hash);
      got?.scopes.push('pty:admin');
      const listed = await store.list({ instanceId });
      listed[0]?.scopes.push('pty:admin');
      expect((await store.get(t.tokenId))?.scopes).toEqual(['pty:observe', 'pty:control']);
    });
  });
}
