import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { AuditEvent, AuditLog } from '@pty-ws/ports';
import { uniqueId } from './support';

export interface AuditLogFixture {
  log: AuditLog;
  /** Opens a second sink on the same storage (a restarted process, or another edge). */
  reopen?(): Promise<AuditLog>;
  cleanup(): Promise<void>;
}

const T0 = 1_700_000_000_000;

function event(instanceId: string, extra: Partial<AuditEvent> = {}): AuditEvent {
  return {
    at: T0,
    type: 'attach',
    instanceId,
    principal: 'token:alice',
    sessionId: 'sess-1',
    clientId: 'client-1',
    edgeId: 'edge-1',
    disclosure: false,
    detail: { role: 'controller', scopes: ['pty:control'], source_address: '127.0.0.1' },
    ...extra,
  };
}

/** The AuditLog contract (ports/src/audit.ts). */
export function auditLogContract(name: string, makeLog: () => Promise<AuditLogFixture>): void {
  describe(`AuditLog contract: ${name}`, () => {
    let fixture: AuditLogFixture;
    let log: AuditLog;
    let instanceId: string;

    beforeEach(async () => {
      fixture = await makeLog();
      log = fixture.log;
      instanceId = uniqueId('instance');
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('record returns synchronously and never throws; query sees what was recorded, with every field', async () => {
      const e = event(instanceId, { disclosure: true, detail: { role: 'observer', nested: { n: 1 } } });
      expect(log.record(e)).toBeUndefined();
      const [got, ...rest] = await log.query({ instanceId, limit: 10 });
      expect(rest).toEqual([]);
      expect(got).toMatchObject({ ...e });
      expect(typeof got?.id).toBe('number');
    });

    it('keeps recorded order and gives increasing ids', async () => {
      for (let i = 0; i < 25; i++) log.record(event(instanceId, { at: T0 + i, detail: { i } }));
      await log.flush();
      const got = await log.query({ instanceId, limit: 100 });
      expect(got.map((e) => e.detail['i'])).toEqual([...Array(25).keys()]);
      for (let i = 1; i < got.length; i++) expect(got[i]!.id).toBeGreaterThan(got[i - 1]!.id);
    });

    it('filters by session, principal, since and afterId, and honours limit (oldest first)', async () => {
      log.record(event(instanceId, { at: T0, sessionId: 'a', principal: 'p1' }));
      log.record(event(instanceId, { at: T0 + 1000, sessionId: 'b', principal: 'p1' }));
      log.record(event(instanceId, { at: T0 + 2000, sessionId: 'a', principal: 'p2' }));
      const { sessionId: _none, ...sessionless } = event(instanceId, {
        at: T0 + 3000,
        type: 'token_create',
        principal: 'p2',
      });
      log.record(sessionless);
      const sessionA = await log.query({ instanceId, sessionId: 'a', limit: 10 });
      expect(sessionA.map((e) => e.at)).toEqual([T0, T0 + 2000]);
      const p2 = await log.query({ instanceId, principal: 'p2', limit: 10 });
      expect(p2.map((e) => e.at)).toEqual([T0 + 2000, T0 + 3000]);
      expect(p2[1]!.sessionId).toBeUndefined();
      const since = await log.query({ instanceId, since: T0 + 1000, limit: 10 });
      expect(since.map((e) => e.at)).toEqual([T0 + 1000, T0 + 2000, T0 + 3000]);
      const first2 = await log.query({ instanceId, limit: 2 });
      expect(first2.map((e) => e.at)).toEqual([T0, T0 + 1000]);
      const next = await log.query({ instanceId, afterId: first2[1]!.id, limit: 10 });
      expect(next.map((e) => e.at)).toEqual([T0 + 2000, T0 + 3000]);
      expect(await log.query({ instanceId: uniqueId('other'), limit: 10 })).toEqual([]);
    });

    it('writes a large burst in batches without losing any', async () => {
      const n = 2500;
      for (let i = 0; i < n; i++) log.record(event(instanceId, { type: 'input', detail: { bytes: i } }));
      await log.flush();
      const got = await log.query({ instanceId, limit: n + 10 });
      expect(got.length).toBe(n);
      expect(got[n - 1]!.detail['bytes']).toBe(n - 1);
    });

    it('close flushes what is queued; a reopened sink continues the ids', async () => {
      if (!fixture.reopen) return;
      log.record(event(instanceId, { detail: { before: true } }));
      await log.close();
      const again = await fixture.reopen();
      again.record(event(instanceId, { detail: { after: true } }));
      const got = await again.query({ instanceId, limit: 10 });
      expect(got.map((e) => Object.keys(e.detail)[0])).toEqual(['before', 'after']);
      expect(got[1]!.id).toBeGreaterThan(got[0]!.id);
      await again.close();
    });
  });
}
