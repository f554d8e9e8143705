/**
 * The A2A control plane (HTTP+JSON, JSON-RPC, gRPC A2AService) and gRPC AdminService under the
 * edge's per-principal request limits (PTYWS_API_RATE_PER_PRINCIPAL: a bucket apart from the attach
 * upgrades' PTYWS_CONN_RATE_*) and on
 * the audit trail: each binding refuses in its own form (HTTP 429, JSON-RPC -32600 + HTTP 429, gRPC
 * RESOURCE_EXHAUSTED), counted in ptyws_rate_limited_total; task send/cancel, push-config
 * set/delete and admin session/token operations are recorded with who, what, binding and address.
 */
import type { AuditEventJson } from '@pty-ws/ports';
import { newId, type Task } from '@pty-ws/protocol';
import { TestContext, http, tryUpgrade } from '@pty-ws/testkit';
import { call, clients, collect, grpc, meta, statusOf, type Clients } from '../grpc/support';
import { openSse } from '../a2a/support';
import { rateLimitedTotal } from './support';

type AuditJson = AuditEventJson;

const restBase = (ctx: TestContext) => `/agents/${ctx.server.instanceId}/a2a/v1`;
const rpcBody = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: newId(), method, params });

describe('A2A and gRPC admin request limits', () => {
  let ctx: TestContext;
  let c: Clients;
  const BURST = 3;
  beforeAll(async () => {
    // One request per second after a burst of three: the fourth request in a row is refused.
    ctx = await TestContext.startWithGrpc({ apiRatePerPrincipal: 1, apiBurstPerPrincipal: BURST });
    c = clients(ctx.server.grpcAddresses[0]!);
    // REST calls take from the same buckets: each minter mints at most BURST tokens.
    for (let i = 0; i < 2; i++) minters.push((await ctx.mintToken({ scopes: ['pty:admin'] })).token);
  });
  afterAll(async () => {
    c?.close();
    await ctx?.dispose();
  });
  const minters: string[] = [];
  let minted = 0;
  const freshToken = async (scopes: string[]) => {
    const minter = minters[Math.floor(minted++ / BURST)]!;
    const res = await http(ctx.server, 'POST', '/api/v1/tokens', { token: minter, json: { scopes } });
    return (res.body as { token: string }).token;
  };

  it('HTTP+JSON answers 429 RATE_LIMITED past the burst, counted per principal', async () => {
    const before = await rateLimitedTotal(ctx, 'requests_principal');
    const token = await freshToken(['pty:observe']);
    const list = () => http(ctx.server, 'GET', `${restBase(ctx)}/tasks`, { token });
    for (let i = 0; i < BURST; i++) expect((await list()).status).toBe(200);
    const refused = await list();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(refused.body)).toContain('RATE_LIMITED');
    // Another principal is not affected.
    const other = await freshToken(['pty:observe']);
    expect((await http(ctx.server, 'GET', `${restBase(ctx)}/tasks`, { token: other })).status).toBe(200);
    expect(await rateLimitedTotal(ctx, 'requests_principal')).toBe((Number.isNaN(before) ? 0 : before) + 1);
  });

  it('JSON-RPC answers -32600 (reason RATE_LIMITED) with HTTP 429 past the burst', async () => {
    const token = await freshToken(['pty:observe']);
    const list = () =>
      http(ctx.server, 'POST', `/agents/${ctx.server.instanceId}/a2a/jsonrpc`, {
        token,
        json: rpcBody('ListTasks', {}),
      });
    for (let i = 0; i < BURST; i++) expect((await list()).body).toHaveProperty('result');
    const res = await list();
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const refused = res.body as { error?: { code: number; data?: unknown[] } };
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.data?.[0]).toMatchObject({
      reason: 'RATE_LIMITED',
      metadata: { limit: 'requests_principal' },
    });
  });

  it('gRPC A2AService and AdminService answer RESOURCE_EXHAUSTED past the burst', async () => {
    const observer = meta(await freshToken(['pty:observe']));
    for (let i = 0; i < BURST; i++) await call(c.a2a, c.a2a.ListTasks, {}, observer);
    expect(await statusOf(call(c.a2a, c.a2a.ListTasks, {}, observer))).toMatchObject({
      code: grpc.status.RESOURCE_EXHAUSTED,
    });

    const admin = meta(await freshToken(['pty:admin']));
    for (let i = 0; i < BURST; i++) await call(c.admin, c.admin.ListTokens, {}, admin);
    expect(await statusOf(call(c.admin, c.admin.ListTokens, {}, admin))).toMatchObject({
      code: grpc.status.RESOURCE_EXHAUSTED,
    });
  });
});

describe('A2A streams under the open-connection caps', () => {
  let ctx: TestContext;
  let c: Clients;
  beforeAll(async () => {
    ctx = await TestContext.startWithGrpc({ maxConnsPerPrincipal: 1 });
    c = clients(ctx.server.grpcAddresses[0]!);
  });
  afterAll(async () => {
    c?.close();
    await ctx?.dispose();
  });

  it('a principal holding its maximum of open connections gets no further stream until one ends', async () => {
    const sessionId = (await ctx.createSession({ argv: ['/bin/sh'] })).session_id;
    const { token, token_id } = await ctx.mintToken({ scopes: ['pty:control'] });
    const before = await rateLimitedTotal(ctx, 'open_connections_principal');
    const sent = await http(ctx.server, 'POST', `${restBase(ctx)}/message:send`, {
      token,
      json: {
        message: {
          message_id: newId(),
          role: 'ROLE_USER',
          parts: [{ text: 'sleep 30' }],
          metadata: { session_id: sessionId },
        },
        configuration: { returnImmediately: true },
      },
    });
    const task = (sent.body as { task: Task }).task;
    const subscribe = () => openSse(ctx, 'GET', `${restBase(ctx)}/tasks/${task.id}:subscribe`, undefined, { token });

    const first = await subscribe();
    expect(first.status).toBe(200);
    await first.waitFor(() => true);
    // The one stream is the principal's one connection: another stream, over any binding, is refused.
    const second = await subscribe();
    await second.done;
    expect(second.status).toBe(429);
    expect(JSON.stringify(second.body)).toContain('open_connections_principal');
    const grpcStream = c.a2a.SubscribeToTask({ id: task.id }, meta(token));
    expect(await statusOf(collect(grpcStream))).toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED });
    expect(await rateLimitedTotal(ctx, 'open_connections_principal')).toBe((Number.isNaN(before) ? 0 : before) + 2);
    // Unary requests are not connections: still served.
    expect((await http(ctx.server, 'GET', `${restBase(ctx)}/tasks/${task.id}`, { token })).status).toBe(200);

    // Once the first stream is gone, a new one is admitted.
    first.close();
    const deadline = Date.now() + 10_000;
    for (;;) {
      const again = await subscribe();
      if (again.status === 200) {
        again.close();
        break;
      }
      await again.done;
      if (Date.now() > deadline) throw new Error(`still refused: ${JSON.stringify(again.body)} (${token_id})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await http(ctx.server, 'POST', `${restBase(ctx)}/tasks/${task.id}:cancel`, { token });
  });
});

describe('A2A and gRPC admin audit events', () => {
  let ctx: TestContext;
  let c: Clients;
  let sessionId = '';
  let controller = { token: '', id: '' };
  beforeAll(async () => {
    ctx = await TestContext.startWithGrpc();
    c = clients(ctx.server.grpcAddresses[0]!);
    sessionId = (await ctx.createSession({ argv: ['/bin/sh'] })).session_id;
    const minted = await ctx.mintToken({ scopes: ['pty:control'], label: 'a2a audit' });
    controller = { token: minted.token, id: `token:${minted.token_id}` };
  });
  afterAll(async () => {
    c?.close();
    await ctx?.dispose();
  });

  /** Audit events of `principal` until `done` holds (the trail is written asynchronously). */
  const eventsOf = async (principal: string, done: (events: AuditJson[]) => boolean): Promise<AuditJson[]> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await http(ctx.server, 'GET', `/api/v1/audit?principal=${encodeURIComponent(principal)}`);
      const events = (res.body as { events: AuditJson[] }).events;
      if (done(events)) return events;
      if (Date.now() > deadline) throw new Error(`audit events incomplete: ${JSON.stringify(events, null, 1)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('records task send and cancel, push-config set and delete, with binding and source address', async () => {
    const rest = (method: string, path: string, json?: unknown) =>
      http(ctx.server, method, `${restBase(ctx)}${path}`, { token: controller.token, ...(json ? { json } : {}) });
    const sent = await rest('POST', '/message:send', {
      message: {
        message_id: newId(),
        role: 'ROLE_USER',
        parts: [{ text: 'sleep 30' }],
        metadata: { session_id: sessionId },
      },
      configuration: { returnImmediately: true },
    });
    expect(sent.status).toBe(200);
    const task = (sent.body as { task: Task }).task;
    const set = await rest('POST', `/tasks/${task.id}/pushNotificationConfigs`, {
      id: 'cfg-a',
      url: 'http://127.0.0.1:9/hook',
      token: 'never-recorded',
    });
    expect(set.status).toBe(200);
    expect((await rest('DELETE', `/tasks/${task.id}/pushNotificationConfigs/cfg-a`)).status).toBe(204);
    // The cancel over gRPC.
    await call(c.a2a, c.a2a.CancelTask, { id: task.id }, meta(controller.token));

    const events = await eventsOf(controller.id, (es) => es.some((e) => e.type === 'task_cancel'));
    const byType = (t: string) => events.find((e) => e.type === t);
    expect(byType('task_send')).toMatchObject({
      session_id: sessionId,
      detail: { task_id: task.id, via: 'http', source_address: expect.stringMatching(/127\.0\.0\.1|::1/) },
    });
    expect(byType('push_config_set')).toMatchObject({
      detail: { task_id: task.id, config_id: 'cfg-a', url: 'http://127.0.0.1:9/hook', via: 'http' },
    });
    expect(JSON.stringify(events)).not.toContain('never-recorded');
    expect(byType('push_config_delete')).toMatchObject({ detail: { task_id: task.id, config_id: 'cfg-a' } });
    expect(byType('task_cancel')).toMatchObject({
      detail: { task_id: task.id, via: 'grpc', source_address: expect.stringMatching(/127\.0\.0\.1|::1/) },
    });
    // Reads are not recorded.
    expect(events.map((e) => e.type).sort()).toEqual([
      'push_config_delete',
      'push_config_set',
      'task_cancel',
      'task_send',
    ]);
  });

  it('records a streamed task send once, when the task was created', async () => {
    const minted = await ctx.mintToken({ scopes: ['pty:control'], label: 'a2a stream audit' });
    const message = {
      message_id: newId(),
      role: 'ROLE_USER' as const,
      parts: [{ text: 'echo streamed' }],
      metadata: { fields: { session_id: { stringValue: sessionId } } },
    };
    const events = await collect(c.a2a.SendStreamingMessage({ message }, meta(minted.token)));
    const taskId = events[0]?.task?.id;
    expect(typeof taskId).toBe('string');
    const audited = await eventsOf(`token:${minted.token_id}`, (es) => es.length > 0);
    expect(audited).toEqual([
      expect.objectContaining({
        type: 'task_send',
        session_id: sessionId,
        detail: expect.objectContaining({ task_id: taskId, message_id: message.message_id, via: 'grpc' }),
      }),
    ]);
  });

  it('records gRPC AdminService session and token operations', async () => {
    const minted = await ctx.mintToken({ scopes: ['pty:admin'], label: 'grpc admin audit' });
    const who = `token:${minted.token_id}`;
    const md = meta(minted.token);
    const session = await call(c.admin, c.admin.CreateSession, { argv: ['/bin/sh'] }, md);
    await call(c.admin, c.admin.KillSession, { session_id: session.session_id }, md);
    const token = await call(c.admin, c.admin.CreateToken, { scopes: ['pty:observe'] }, md);
    await call(c.admin, c.admin.RevokeToken, { token_id: token.token?.token_id }, md);

    const events = await eventsOf(who, (es) => es.some((e) => e.type === 'token_revoke'));
    expect(events.map((e) => e.type)).toEqual(['session_create', 'session_kill', 'token_create', 'token_revoke']);
    for (const e of events) {
      expect(e.detail).toMatchObject({ via: 'grpc', source_address: expect.stringMatching(/127\.0\.0\.1|::1/) });
    }
    expect(events[0]).toMatchObject({ session_id: session.session_id });
    expect(events[3]?.detail).toMatchObject({ token_id: token.token?.token_id });
  });
});

describe('control-plane requests and attach upgrades have buckets of their own', () => {
  let ctx: TestContext;
  let c: Clients;
  const ATTACH_BURST = 2;
  beforeAll(async () => {
    // An attach allowance a conformance run or a busy dashboard would empty in a moment if
    // its requests were charged to it.
    ctx = await TestContext.startWithGrpc({ connRatePerPrincipal: 1, connBurstPerPrincipal: ATTACH_BURST });
    c = clients(ctx.server.grpcAddresses[0]!);
  });
  afterAll(async () => {
    c?.close();
    await ctx?.dispose();
  });

  it("a principal's A2A, REST and gRPC requests do not spend its attach upgrades", async () => {
    const sessionId = (await ctx.createSession({ argv: ['/bin/sh'] })).session_id;
    const { token } = await ctx.mintToken({ scopes: ['pty:control'] });
    const rpcPath = `/agents/${ctx.server.instanceId}/a2a/jsonrpc`;
    for (let i = 0; i < 5 * ATTACH_BURST; i++) {
      expect((await http(ctx.server, 'GET', `${restBase(ctx)}/tasks`, { token })).status).toBe(200);
      expect((await http(ctx.server, 'POST', rpcPath, { token, json: rpcBody('ListTasks', {}) })).body).toHaveProperty(
        'result',
      );
      expect((await http(ctx.server, 'GET', `/api/v1/sessions/${sessionId}`, { token })).status).not.toBe(429);
      await call(c.a2a, c.a2a.ListTasks, {}, meta(token));
    }
    const url = ctx.server.attachUrl(sessionId);
    for (let i = 0; i < ATTACH_BURST; i++) expect((await tryUpgrade(url, { token })).status).toBe(101);
    // The attach bucket still applies to attaches.
    expect((await tryUpgrade(url, { token })).status).toBe(429);
  });
});
