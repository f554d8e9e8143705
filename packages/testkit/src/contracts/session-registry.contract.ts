import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { SessionRecord, SessionRegistry } from '@pty-ws/ports';
import { uniqueId } from './support';

export interface SessionRegistryFixture {
  registry: SessionRegistry;
  cleanup(): Promise<void>;
}

const T0 = 1_700_000_000_000;

function sessionRecord(instanceId: string, extra: Partial<SessionRecord> = {}): SessionRecord {
  return {
    sessionId: uniqueId('session'),
    instanceId,
    agentId: 'agent-1',
    spec: {
      argv: ['/bin/bash', '-l'],
      cwd: '/tmp',
      env: { TERM: 'xterm-256color' },
      size: { cols: 120, rows: 30 },
      backend: 'native',
      sessionClass: 'direct',
    },
    state: 'running',
    createdAt: T0,
    pid: 4242,
    ...extra,
  };
}

const ids = (records: readonly SessionRecord[]): string[] => records.map((r) => r.sessionId).sort();

/** The SessionRegistry contract (ports/src/registry.ts). */
export function sessionRegistryContract(name: string, makeRegistry: () => Promise<SessionRegistryFixture>): void {
  describe(`SessionRegistry contract: ${name}`, () => {
    let fixture: SessionRegistryFixture;
    let registry: SessionRegistry;
    let instanceId: string;

    beforeEach(async () => {
      fixture = await makeRegistry();
      registry = fixture.registry;
      instanceId = uniqueId('instance');
    });
    afterEach(async () => {
      for (const r of await registry.list({ instanceId })) await registry.delete(r.sessionId);
      await fixture.cleanup();
    });

    it('round-trips a record', async () => {
      const r = sessionRecord(instanceId);
      await registry.put(r);
      expect(await registry.get(r.sessionId)).toEqual(r);
    });

    it('returns undefined for an unknown session', async () => {
      expect(await registry.get(uniqueId('session'))).toBeUndefined();
    });

    it('replaces a record on a second put', async () => {
      const r = sessionRecord(instanceId);
      await registry.put(r);
      const replaced = {
        ...r,
        state: 'closed' as const,
        closedAt: T0 + 10,
        exitCode: 0,
        closedReason: 'normal' as const,
      };
      await registry.put(replaced);
      expect(await registry.get(r.sessionId)).toEqual(replaced);
      expect(await registry.list({ instanceId })).toHaveLength(1);
    });

    it('lists by instance and by state', async () => {
      const a = sessionRecord(instanceId, { state: 'starting' });
      const b = sessionRecord(instanceId, { state: 'running' });
      const c = sessionRecord(instanceId, { state: 'running' });
      const elsewhere = sessionRecord(uniqueId('instance'), { state: 'running' });
      for (const r of [a, b, c, elsewhere]) await registry.put(r);
      expect(ids(await registry.list({ instanceId }))).toEqual(ids([a, b, c]));
      expect(ids(await registry.list({ instanceId, state: 'running' }))).toEqual(ids([b, c]));
      expect(ids(await registry.list({ instanceId, state: 'closed' }))).toEqual([]);
      expect(ids(await registry.list())).toEqual(expect.arrayContaining(ids([a, b, c, elsewhere])));
      await registry.delete(elsewhere.sessionId);
    });

    describe('update', () => {
      it('applies a partial patch and returns the whole updated record', async () => {
        const r = sessionRecord(instanceId, { state: 'starting', pid: undefined });
        await registry.put(r);
        const updated = await registry.update(r.sessionId, { state: 'running', pid: 99 });
        expect(updated).toEqual({ ...r, state: 'running', pid: 99 });
        expect(await registry.get(r.sessionId)).toEqual(updated);
      });

      it('can record a close', async () => {
        const r = sessionRecord(instanceId);
        await registry.put(r);
        await registry.update(r.sessionId, {
          state: 'closed',
          closedAt: T0 + 5,
          exitCode: null,
          closedReason: 'killed',
        });
        expect(await registry.get(r.sessionId)).toMatchObject({
          state: 'closed',
          closedAt: T0 + 5,
          exitCode: null,
          closedReason: 'killed',
          spec: r.spec,
        });
      });

      it('returns undefined for an unknown session and creates nothing', async () => {
        const missing = uniqueId('session');
        expect(await registry.update(missing, { state: 'closed' })).toBeUndefined();
        expect(await registry.get(missing)).toBeUndefined();
      });
    });

    it('deletes a record, and deleting an unknown one is harmless', async () => {
      const r = sessionRecord(instanceId);
      await registry.put(r);
      await registry.delete(r.sessionId);
      await registry.delete(r.sessionId);
      expect(await registry.get(r.sessionId)).toBeUndefined();
      expect(await registry.list({ instanceId })).toEqual([]);
    });

    it('is not changed through objects passed in or handed out', async () => {
      const r = sessionRecord(instanceId);
      await registry.put(r);
      r.spec.argv.push('--evil');
      const got = await registry.get(r.sessionId);
      got?.spec.argv.push('--evil');
      const updated = await registry.update(r.sessionId, { pid: 1 });
      updated?.spec.argv.push('--evil');
      (await registry.list({ instanceId }))[0]?.spec.argv.push('--evil');
      expect((await registry.get(r.sessionId))?.spec.argv).toEqual(['/bin/bash', '-l']);
    });
  });
}
