import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Member, MembershipStore } from '@pty-ws/ports';
import { uniqueId } from './support';

export interface MembershipStoreFixture {
  store: MembershipStore;
  cleanup(): Promise<void>;
}

const T0 = 1_700_000_000_000;

function member(clientId: string, role: Member['role'], extra: Partial<Member> = {}): Member {
  return { clientId, role, edgeId: 'edge-1', principalId: 'principal-1', joinedAt: T0, ...extra };
}

/** The MembershipStore contract (ports/src/membership.ts). */
export function membershipStoreContract(name: string, makeStore: () => Promise<MembershipStoreFixture>): void {
  describe(`MembershipStore contract: ${name}`, () => {
    let fixture: MembershipStoreFixture;
    let store: MembershipStore;
    let session: string;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
      session = uniqueId('session');
    });
    afterEach(async () => {
      await store.remove(session);
      await fixture.cleanup();
    });

    it('loads an empty list for an unknown session', async () => {
      expect(await store.load(session)).toEqual([]);
    });

    it('round-trips members in order', async () => {
      const members = [member('c1', 'controller', { label: 'alice' }), member('c2', 'observer', { edgeId: 'edge-2' })];
      await store.save(session, members);
      expect(await store.load(session)).toEqual(members);
    });

    it('replaces the whole list on save', async () => {
      await store.save(session, [member('c1', 'controller'), member('c2', 'observer')]);
      await store.save(session, [member('c2', 'controller')]);
      expect(await store.load(session)).toEqual([member('c2', 'controller')]);
      await store.save(session, []);
      expect(await store.load(session)).toEqual([]);
    });

    it('keeps sessions apart and removes one without touching others', async () => {
      const other = uniqueId('session');
      await store.save(session, [member('c1', 'controller')]);
      await store.save(other, [member('c9', 'observer')]);
      await store.remove(other);
      await store.remove(uniqueId('session'));
      expect(await store.load(other)).toEqual([]);
      expect(await store.load(session)).toEqual([member('c1', 'controller')]);
    });

    it('is not changed through objects passed in or handed out', async () => {
      const members = [member('c1', 'controller')];
      await store.save(session, members);
      members.push(member('c2', 'observer'));
      const first = members[0];
      if (first) first.role = 'observer';
      const loaded = await store.load(session);
      loaded.push(member('c3', 'observer'));
      expect(await store.load(session)).toEqual([member('c1', 'controller')]);
    });
  });
}
