/** The REST control plane of the interface contract, the AgentCard (binding §10) and health. */
import { BINDING_URI, CORE_OPERATIONS, EXTENSION_URI, isUuidV7, newId } from '@pty-ws/protocol';
import { http, isRecord, joinSession, type HttpResponse } from '@pty-ws/testkit';
import { ptyWsParams } from '../a2a/support';
import { decodeSnapshot, jsonOf, shell, useServer } from './support';

const ADMIN = `admin-${newId()}`;

function expectJsonError(res: HttpResponse, status: number): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type') ?? '').toMatch(/application\/json/);
  expect(isRecord(res.body)).toBe(true);
  expect(res.text.length).toBeGreaterThan(2);
}

/** The list in a listing response: the body itself, or its one array-valued field. */
function listOf(body: unknown, key: string): Array<Record<string, unknown>> {
  if (Array.isArray(body)) return body as Array<Record<string, unknown>>;
  if (isRecord(body) && Array.isArray(body[key])) return body[key] as Array<Record<string, unknown>>;
  throw new Error(`no ${key} list in ${JSON.stringify(body).slice(0, 200)}`);
}

describe('REST control plane', () => {
  const ctx = useServer({
    adminToken: ADMIN,
    maxControllers: 3,
    maxObservers: 7,
    keyframeIntervalS: 4,
    keyframeIntervalFrames: 50,
    replayFrames: 500,
    replayRetentionS: 3600,
    defaultCols: 100,
    defaultRows: 25,
  });

  it('PTYWS_ADMIN_TOKEN is the admin bearer', () => {
    expect(ctx().server.adminToken).toBe(ADMIN);
  });

  it('GET /healthz and /readyz answer 200', async () => {
    expect((await http(ctx().server, 'GET', '/healthz', { token: null })).status).toBe(200);
    expect((await http(ctx().server, 'GET', '/readyz', { token: null })).status).toBe(200);
  });

  it('POST /api/v1/sessions → 201 with session_id, instance_id and attach_url', async () => {
    const res = await http(ctx().server, 'POST', '/api/v1/sessions', { json: shell() });
    expect(res.status).toBe(201);
    const b = res.body as Record<string, unknown>;
    expect(isUuidV7(b['session_id'] as string)).toBe(true);
    expect(b['instance_id']).toBe(ctx().server.instanceId);
    expect(b['attach_url']).toEqual(
      expect.stringContaining(`/agents/${ctx().server.instanceId}/sessions/${String(b['session_id'])}/attach`),
    );
  });

  it('sessions honour argv, cwd, env and size', async () => {
    const s = await ctx().createSession({
      argv: ['/bin/sh', '-c', 'pwd; echo "env=$PROBE_VAR"; stty size; exec sleep 30'],
      cwd: '/tmp',
      env: { PROBE_VAR: 'probe-value', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      cols: 77,
      rows: 21,
    });
    const c = await ctx().attach(s.session_id);
    const flush = await joinSession(c, { role: 'observer' }, { replayFrom: 0 });
    const text = await c.collectOutput(/21 77/, 3000, flush.from);
    expect(text).toMatch(/^\/tmp\r?$/m);
    expect(text).toMatch(/env=probe-value/);
    expect([flush.keyframe.snapshot_cols, flush.keyframe.snapshot_rows]).toEqual([77, 21]);
  });

  it('command runs via /bin/sh -lc', async () => {
    const s = await ctx().createSession({ command: 'echo "sum=$((6*7))"; exec sleep 30' });
    const c = await ctx().attach(s.session_id);
    const flush = await joinSession(c, { role: 'observer' }, { replayFrom: 0 });
    await c.collectOutput(/sum=42/, 3000, flush.from);
  });

  it('default_cols/default_rows apply when neither the creator nor the first joiner gives a size', async () => {
    const s = await ctx().createSession({ argv: ['/bin/sh'] });
    const c = await ctx().attach(s.session_id);
    const flush = await joinSession(c, { role: 'controller' });
    expect([flush.keyframe.snapshot_cols, flush.keyframe.snapshot_rows]).toEqual([100, 25]);
  });

  it('GET /api/v1/sessions lists sessions; GET /api/v1/sessions/{id} returns one; unknown → 404', async () => {
    const s = await ctx().createSession(shell());
    const list = await http(ctx().server, 'GET', '/api/v1/sessions');
    expect(list.status).toBe(200);
    expect(listOf(list.body, 'sessions').map((x) => x['session_id'])).toContain(s.session_id);
    const one = await http(ctx().server, 'GET', `/api/v1/sessions/${s.session_id}`);
    expect(one.status).toBe(200);
    expect((one.body as Record<string, unknown>)['session_id']).toBe(s.session_id);
    expectJsonError(await http(ctx().server, 'GET', `/api/v1/sessions/${newId()}`), 404);
    expectJsonError(await http(ctx().server, 'DELETE', `/api/v1/sessions/${newId()}`), 404);
  });

  it('unsupported backends and classes fail closed with *.not_implemented (§5.1.1)', async () => {
    // zellij cannot be installed on this machine, so it is always unsupported; tmux and screen are
    // supported wherever their binaries exist (tests/session-hosts covers them).
    for (const backend of ['zellij']) {
      const res = await http(ctx().server, 'POST', '/api/v1/sessions', {
        json: { ...shell(), session_backend: backend, session_class: 'managed' },
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(600);
      expect(res.text).toContain('session_backend.not_implemented');
    }
    const pair = await http(ctx().server, 'POST', '/api/v1/sessions', {
      json: { ...shell(), session_backend: 'native', session_class: 'managed' },
    });
    expect(pair.status).toBeGreaterThanOrEqual(400);
    expect(pair.text).toMatch(/session_class\.not_implemented|not_implemented/);
    const list = await http(ctx().server, 'GET', '/api/v1/sessions');
    expect(listOf(list.body, 'sessions').every((x) => !JSON.stringify(x).includes('zellij'))).toBe(true);
  });

  it('a pty.join_session naming an unsupported backend fails closed (§5.1.1)', async () => {
    const s = await ctx().createSession(shell());
    const c = await ctx().attach(s.session_id);
    const reply = await c.request('pty.join_session', {
      role: 'controller',
      session_backend: 'zellij',
      session_class: 'managed',
    });
    expect(reply.op).toBe('Error');
    expect(JSON.stringify(reply.payload)).toContain('session_backend.not_implemented');
    expect(c.frames.some((r) => jsonOf(r).payload?.['kind'] === 'RoleAssigned')).toBe(false);
  });

  it('bad JSON and bad fields give 400 with a JSON error body, never a crash', async () => {
    const bad: Array<{ path: string; raw?: string; json?: unknown }> = [
      { path: '/api/v1/sessions', raw: '{"argv": [' },
      { path: '/api/v1/sessions', raw: '[]' },
      { path: '/api/v1/sessions', json: { argv: '/bin/sh' } },
      { path: '/api/v1/sessions', json: { argv: [] } },
      { path: '/api/v1/sessions', json: { argv: ['/bin/sh'], cols: 'wide' } },
      { path: '/api/v1/sessions', json: { argv: ['/bin/sh'], cols: 10, rows: 2 } },
      { path: '/api/v1/sessions', json: { argv: ['/bin/sh'], env: { A: 1 } } },
      { path: '/api/v1/sessions', json: { argv: ['/bin/sh'], session_backend: 'vt52' } },
      { path: '/api/v1/tokens', raw: 'not json' },
      { path: '/api/v1/tokens', json: { scopes: ['pty:root'], instance_id: 'x' } },
      { path: '/api/v1/tokens', json: { scopes: 'pty:observe' } },
      { path: '/api/v1/tokens', json: { scopes: ['pty:observe'], ttl_seconds: -5 } },
    ];
    for (const b of bad) {
      const opts = b.raw !== undefined ? { rawBody: b.raw } : { json: b.json };
      const res = await http(ctx().server, 'POST', b.path, opts);
      if (res.status !== 400)
        throw new Error(`${b.path} ${b.raw ?? JSON.stringify(b.json)} → ${res.status} ${res.text}`);
      expectJsonError(res, 400);
    }
    expect((await http(ctx().server, 'GET', '/healthz', { token: null })).status).toBe(200);
  });

  it('REST is admin-scoped: no token → 401, non-admin token → 403 (JSON bodies)', async () => {
    expectJsonError(await http(ctx().server, 'GET', '/api/v1/sessions', { token: null }), 401);
    expectJsonError(await http(ctx().server, 'POST', '/api/v1/sessions', { token: null, json: shell() }), 401);
    expectJsonError(await http(ctx().server, 'GET', '/api/v1/tokens', { token: 'bogus' }), 401);
    const control = await ctx().mintToken({ scopes: ['pty:control'] });
    expectJsonError(await http(ctx().server, 'POST', '/api/v1/sessions', { token: control.token, json: shell() }), 403);
    expectJsonError(await http(ctx().server, 'GET', '/api/v1/tokens', { token: control.token }), 403);
    expectJsonError(
      await http(ctx().server, 'POST', '/api/v1/tokens', { token: control.token, json: { scopes: ['pty:admin'] } }),
      403,
    );
  });

  it('a minted pty:admin token may use the REST API', async () => {
    const admin = await ctx().mintToken({ scopes: ['pty:admin'], label: 'second admin' });
    expect((await http(ctx().server, 'GET', '/api/v1/sessions', { token: admin.token })).status).toBe(200);
    expect((await http(ctx().server, 'POST', '/api/v1/sessions', { token: admin.token, json: shell() })).status).toBe(
      201,
    );
  });

  it('tokens: POST shows the token once, GET never shows it, DELETE revokes it', async () => {
    const s = await ctx().createSession(shell());
    const res = await http(ctx().server, 'POST', '/api/v1/tokens', {
      json: {
        scopes: ['pty:observe'],
        instance_id: ctx().server.instanceId,
        session_id: s.session_id,
        ttl_seconds: 600,
        label: 'viewer',
      },
    });
    expect([200, 201]).toContain(res.status);
    const minted = res.body as Record<string, unknown>;
    expect(typeof minted['token']).toBe('string');
    expect(typeof minted['token_id']).toBe('string');
    const token = minted['token'] as string;
    const tokenId = minted['token_id'] as string;

    const list = await http(ctx().server, 'GET', '/api/v1/tokens');
    expect(list.status).toBe(200);
    const entries = listOf(list.body, 'tokens');
    const entry = entries.find((t) => t['token_id'] === tokenId);
    expect(entry).toBeDefined();
    expect(entry?.['label']).toBe('viewer');
    expect(list.text).not.toContain(token);
    expect(JSON.stringify(entry)).not.toContain(token);

    const c = await ctx().attach(s.session_id, { token });
    expect((await joinSession(c, {})).roleAssigned.role).toBe('observer');

    const del = await http(ctx().server, 'DELETE', `/api/v1/tokens/${tokenId}`);
    expect([200, 204]).toContain(del.status);
    expectJsonError(await http(ctx().server, 'DELETE', `/api/v1/tokens/${newId()}`), 404);
  });

  it('GET /agents/{instance_id}/.well-known/agent-card.json advertises the binding (§10) and extension params', async () => {
    const res = await http(ctx().server, 'GET', `/agents/${ctx().server.instanceId}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const card = res.body as {
      capabilities: { extensions: Array<{ uri: string; required?: boolean; params?: Record<string, unknown> }> };
    };
    const binding = ptyWsParams(card).bindings.find((b) => b.uri === BINDING_URI);
    expect(binding).toBeDefined();
    expect(binding?.endpoint).toMatch(
      new RegExp(`^wss?://.+/agents/${ctx().server.instanceId}/sessions/\\{session_id\\}/attach$`),
    );
    expect(binding?.preference).toBe('secondary');
    for (const op of CORE_OPERATIONS) expect(binding?.operations).toContain(op);
    expect(binding?.notes).toMatch(/ListTasks/);
    expect(binding?.notes).toMatch(/session/i);
    const ext = card.capabilities.extensions.find((e) => e.uri === EXTENSION_URI);
    expect(ext).toBeDefined();
    expect(ext?.required ?? false).toBe(false);
    expect(ext?.params).toMatchObject({
      max_controllers: 3,
      max_observers: 7,
      keyframe_interval_seconds: 4,
      keyframe_interval_frames: 50,
      replay_buffer_frames: 500,
      replay_buffer_retention_seconds: 3600,
      default_cols: 100,
      default_rows: 25,
    });
  });

  it('the AgentCard of an unknown instance is 404', async () => {
    expect((await http(ctx().server, 'GET', '/agents/no-such-instance/.well-known/agent-card.json')).status).toBe(404);
  });

  it('a keyframe of a REST-created session shows what the process printed', async () => {
    const s = await ctx().createSession({
      argv: ['/bin/sh', '-c', 'echo painted-by-rest; exec sleep 30'],
      cols: 40,
      rows: 10,
    });
    const c = await ctx().attach(s.session_id);
    await new Promise((r) => setTimeout(r, 300));
    const flush = await joinSession(c, { role: 'observer' });
    expect(decodeSnapshot(flush.keyframe.snapshot)).toContain('painted-by-rest');
  });
});
