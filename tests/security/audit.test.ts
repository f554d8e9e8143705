/**
 * The audit trail end to end (issue "Audit"; extension "Security notes": audit every observer
 * attach): attaches with principal, role, scopes, source address and subprotocol; input
 * attribution without the bytes; resize; role changes; token create/revoke; detach — read back
 * through GET /api/v1/audit. Embedded: JSON lines in a file; cluster: the Postgres table, written by
 * both edges (clients of one session are spread across them).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEventJson } from '@pty-ws/ports';
import { TestContext, delay, http, is, joinSession, testMode, type TestClient } from '@pty-ws/testkit';
import { shell } from '../conformance/support';
import { counterTotal } from './support';

type AuditJson = AuditEventJson;

const SECRET = 'typed-secret-4711';

describe('audit log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ptyws-audit-e2e-'));
  const file = join(dir, 'audit.jsonl');
  let ctx: TestContext;
  let sessionId = '';
  let ctlId = '';
  let obsId = '';
  let inputBytes = 0;

  const audit = async (query: string, token?: string | null) =>
    http(ctx.server, 'GET', `/api/v1/audit?${query}`, { token });

  async function eventsUntil(query: string, done: (events: AuditJson[]) => boolean): Promise<AuditJson[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await audit(query);
      expect(res.status).toBe(200);
      const events = (res.body as { events: AuditJson[] }).events;
      if (done(events)) return events;
      if (Date.now() > deadline) throw new Error(`audit events incomplete: ${JSON.stringify(events, null, 1)}`);
      await delay(200);
    }
  }

  beforeAll(async () => {
    ctx = await TestContext.start(testMode() === 'embedded' ? { auditLog: file } : {});
    sessionId = (await ctx.createSession(shell())).session_id;
    const ctl = await ctx.mintToken({ scopes: ['pty:control'], label: 'audit controller' });
    const obs = await ctx.mintToken({ scopes: ['pty:observe'], label: 'audit observer' });
    ctlId = ctl.token_id;
    obsId = obs.token_id;

    const controller: TestClient = await ctx.attach(sessionId, { token: ctl.token });
    await joinSession(controller, { role: 'controller' });
    for (const text of [`echo ${SECRET}\n`, 'true\n']) {
      controller.input(text);
      inputBytes += Buffer.byteLength(text);
    }
    // The shell's output line, not the terminal's echo of the command. Typed before the first
    // prompt, the output follows the prompt ("$ typed-secret-4711"), not a newline.
    await controller.collectOutput(new RegExp(`(?<!echo )${SECRET}\\r\\n`), 5000);
    controller.send('pty.session_resize', { cols: 100, rows: 30 });
    await controller.waitFor(is.kind('Resize'), 5000);

    const observer = await ctx.attach(sessionId, { token: obs.token, protocols: ['pty-ws.v1.binary'] });
    await joinSession(observer, {});
    controller.send('pty.release_role', {});
    await controller.waitFor(is.kind('RoleAssigned'), 5000, controller.mark());
    expect((await http(ctx.server, 'DELETE', `/api/v1/tokens/${obsId}`)).status).toBe(200);
    await observer.closed;
  });
  afterAll(async () => {
    await ctx.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records attaches with role, scopes, source and subprotocol; an observer attach is a disclosure', async () => {
    const events = await eventsUntil(
      `session_id=${sessionId}`,
      (es) => es.filter((e) => e.type === 'attach').length >= 2,
    );
    const attaches = events.filter((e) => e.type === 'attach');
    const ctlAttach = attaches.find((e) => e.principal === `token:${ctlId}`);
    const obsAttach = attaches.find((e) => e.principal === `token:${obsId}`);
    expect(ctlAttach).toMatchObject({
      disclosure: false,
      detail: { role: 'controller', scopes: ['pty:control'], subprotocol: 'pty-ws.v1', principal_kind: 'token' },
    });
    expect(ctlAttach?.detail['source_address']).toMatch(/127\.0\.0\.1|::1/);
    expect(ctlAttach?.edge_id).toEqual(expect.any(String));
    expect(ctlAttach?.client_id).toEqual(expect.any(String));
    expect(obsAttach).toMatchObject({
      disclosure: true,
      detail: { role: 'observer', scopes: ['pty:observe'], subprotocol: 'pty-ws.v1.binary' },
    });
  });

  it('attributes input to the connection with byte counts, never the bytes', async () => {
    const events = await eventsUntil(`session_id=${sessionId}`, (es) => es.some((e) => e.type === 'input'));
    const inputs = events.filter((e) => e.type === 'input');
    expect(inputs.every((e) => e.principal === `token:${ctlId}`)).toBe(true);
    expect(inputs.reduce((n, e) => n + (e.detail['bytes'] as number), 0)).toBe(inputBytes);
    expect(inputs.reduce((n, e) => n + (e.detail['frames'] as number), 0)).toBe(2);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    if (testMode() === 'embedded') expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
  });

  it('records resize, role change (who, from, to, why) and the detach of the revoked observer', async () => {
    const events = await eventsUntil(`session_id=${sessionId}`, (es) => es.some((e) => e.type === 'detach'));
    expect(events.find((e) => e.type === 'resize')).toMatchObject({
      principal: `token:${ctlId}`,
      detail: { cols: 100, rows: 30 },
    });
    expect(events.find((e) => e.type === 'role_change')).toMatchObject({
      principal: `token:${ctlId}`,
      disclosure: true,
      detail: { from: 'controller', to: 'observer', reason: 'released' },
    });
    expect(events.find((e) => e.type === 'detach')).toMatchObject({
      principal: `token:${obsId}`,
      detail: { role: 'observer', close_code: 4401 },
    });
    const ids = events.map((e) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('records token create and revoke by the admin, filterable by principal', async () => {
    const all = await eventsUntil('limit=1000', (es) => es.some((e) => e.type === 'token_revoke'));
    const admin = all.find((e) => e.type === 'token_create')?.principal;
    expect(admin).toMatch(/^token:/);
    const byAdmin = await eventsUntil(`principal=${encodeURIComponent(admin!)}`, (es) =>
      es.some((e) => e.type === 'token_revoke'),
    );
    expect(byAdmin.every((e) => e.principal === admin)).toBe(true);
    expect(byAdmin.filter((e) => e.type === 'token_create').map((e) => e.detail['token_id'])).toEqual(
      expect.arrayContaining([ctlId, obsId]),
    );
    expect(byAdmin.find((e) => e.type === 'token_revoke')?.detail).toEqual({ token_id: obsId });
    expect(byAdmin.find((e) => e.type === 'session_create')?.session_id).toBe(sessionId);
    // Every recorded event is counted; nothing was dropped or failed to write.
    expect(await counterTotal(ctx, 'ptyws_audit_events_total')).toBeGreaterThanOrEqual(all.length);
    expect(await counterTotal(ctx, 'ptyws_audit_dropped_total')).toBe(0);
    expect(await counterTotal(ctx, 'ptyws_audit_write_failures_total')).toBe(0);
  });

  it('pages with limit and after_id, filters by since; admin only; bad parameters are 400', async () => {
    const first = await audit(`session_id=${sessionId}&limit=2`);
    const page = first.body as { events: AuditJson[]; next_after_id: number };
    expect(page.events).toHaveLength(2);
    expect(page.next_after_id).toBe(page.events[1]!.id);
    const next = (await audit(`session_id=${sessionId}&after_id=${page.next_after_id}`)).body as {
      events: AuditJson[];
    };
    expect(next.events[0]!.id).toBeGreaterThan(page.next_after_id);
    const future = (await audit(`since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body as {
      events: AuditJson[];
    };
    expect(future.events).toEqual([]);

    const ctl = await ctx.mintToken({ scopes: ['pty:control'] });
    expect((await audit('', ctl.token)).status).toBe(403);
    expect((await audit('', null)).status).toBe(401);
    expect((await audit('since=yesterday')).status).toBe(400);
    expect((await audit('limit=0')).status).toBe(400);
    expect((await audit('sesion_id=x')).status).toBe(400);
  });
});

describe('audit log to a stream', () => {
  it('embedded: stderr cannot be read back (400 UNSUPPORTED_OPERATION); cluster: the table still answers', async () => {
    const ctx = await TestContext.start({ auditLog: 'stderr' });
    try {
      const res = await http(ctx.server, 'GET', '/api/v1/audit');
      if (testMode() === 'embedded') {
        expect(res.status).toBe(400);
        const err = (res.body as { error: { code: string; message: string } }).error;
        expect(err.code).toBe('UNSUPPORTED_OPERATION');
        expect(err.message).toMatch(/PTYWS_AUDIT_LOG/);
      } else {
        expect(res.status).toBe(200);
      }
    } finally {
      await ctx.dispose();
    }
  });
});
