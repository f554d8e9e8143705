/**
 * A generic A2A client names no session: a message from a principal that may create sessions
 * runs in a session created for its context (`contextId` → session), reused by the context's
 * later messages on every binding and every edge, and closed once the context is idle — never
 * while a task of it runs. Others are told what to do.
 */
import { newId } from '@pty-ws/protocol';
import { http, TestContext, type TestServer } from '@pty-ws/testkit';
import { call, clients, meta, type Clients } from '../grpc/support';
import { rpc, rpcOk, type V1Task } from './support';

interface SessionView {
  session_id: string;
  state: string;
}

/** A message as a generic A2A client writes it: no session anywhere. */
const bare = (text: string, contextId?: string) => ({
  messageId: newId(),
  role: 'ROLE_USER',
  parts: [{ text }],
  ...(contextId ? { contextId } : {}),
});
const output = (t: V1Task) => (t.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('');

/** Each edge as a server to call (cluster mode: both; embedded: the one). */
function edgesOf(server: TestServer): TestServer[] {
  const edges = (server.node as { edges?: { httpUrl: string }[] }).edges ?? [];
  return edges.length > 0 ? edges.map((e) => ({ ...server, httpUrl: e.httpUrl })) : [server];
}

async function sessions(ctx: TestContext): Promise<SessionView[]> {
  const r = await http(ctx.server, 'GET', '/api/v1/sessions');
  return (r.body as { sessions: SessionView[] }).sessions;
}

/** The sessions `fn` created. */
async function createdBy<T>(ctx: TestContext, fn: () => Promise<T>): Promise<{ result: T; created: SessionView[] }> {
  const before = new Set((await sessions(ctx)).map((s) => s.session_id));
  const result = await fn();
  return { result, created: (await sessions(ctx)).filter((s) => !before.has(s.session_id)) };
}

async function waitUntil(what: string, condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** JSON-RPC SendMessage on one edge; resolves with the task. */
async function sendVia(server: TestServer, text: string, contextId?: string, configuration?: object): Promise<V1Task> {
  const r = await http(server, 'POST', `/agents/${server.instanceId}/a2a/jsonrpc`, {
    json: {
      jsonrpc: '2.0',
      id: newId(),
      method: 'SendMessage',
      params: { message: bare(text, contextId), ...(configuration ? { configuration } : {}) },
    },
  });
  const result = (r.body as { result?: { task: V1Task } }).result;
  if (!result) throw new Error(`SendMessage failed: ${r.text}`);
  return result.task;
}

const stateOf = async (ctx: TestContext, id: string) =>
  ((await http(ctx.server, 'GET', `/api/v1/sessions/${id}`)).body as SessionView).state;

describe('a session per A2A context for clients that name none', () => {
  let ctx: TestContext;
  let grpcOther: Clients;
  const base = `/agents/`;
  const send = (server: TestServer, text: string, contextId?: string) => sendVia(server, text, contextId);

  beforeAll(async () => {
    ctx = await TestContext.startWithGrpc();
    grpcOther = clients(ctx.server.grpcAddresses.at(-1)!);
  });
  afterAll(async () => {
    grpcOther?.close();
    await ctx?.dispose();
  });

  it('JSON-RPC: a message without session or contextId runs in a new session; the context id comes back', async () => {
    const { result: task, created } = await createdBy(ctx, () => send(ctx.server, 'echo first_$((20+1))'));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(output(task)).toContain('first_21');
    expect(task.contextId).toMatch(/\S/);
    expect(created).toHaveLength(1);
    expect(created[0]!.state).toBe('running');
    // The session was created on the caller's behalf: the audit trail says by whom and for what.
    let events: { type: string; detail: Record<string, unknown> }[] = [];
    await waitUntil('the session_create event', async () => {
      const r = await http(ctx.server, 'GET', `/api/v1/audit?session_id=${created[0]!.session_id}`);
      events = (r.body as { events: typeof events }).events;
      return events.some((e) => e.type === 'session_create');
    });
    expect(events.find((e) => e.type === 'session_create')?.detail).toMatchObject({
      context_id: task.contextId,
      via: 'http',
    });
  });

  it('later messages of the context run in the same session, on every binding and edge', async () => {
    const [a, b] = [edgesOf(ctx.server)[0]!, edgesOf(ctx.server).at(-1)!];
    const { result: first, created } = await createdBy(ctx, () => send(a, 'cd /tmp && export CTX_MARK=kept'));
    expect(created).toHaveLength(1);
    const contextId = first.contextId;
    const { result, created: none } = await createdBy(ctx, async () => {
      // JSON-RPC on the other edge: the shell is the one `cd` ran in.
      const viaRpc = await send(b, 'pwd; echo mark=$CTX_MARK', contextId);
      // HTTP+JSON.
      const viaRest = await http(ctx.server, 'POST', `${base}${ctx.server.instanceId}/a2a/v1/message:send`, {
        json: { message: bare('echo rest=$CTX_MARK', contextId) },
      });
      // gRPC (the last edge's server).
      const viaGrpc = await call(
        grpcOther.a2a,
        grpcOther.a2a.SendMessage,
        {
          message: {
            message_id: newId(),
            role: 'ROLE_USER',
            parts: [{ text: 'echo grpc=$CTX_MARK' }],
            context_id: contextId,
          },
        },
        meta(ctx.server.adminToken),
      );
      return { viaRpc, viaRest: (viaRest.body as { task: V1Task }).task, viaGrpc };
    });
    expect(none).toEqual([]);
    expect(output(result.viaRpc)).toContain('/tmp\nmark=kept');
    expect(result.viaRpc.contextId).toBe(contextId);
    expect(output(result.viaRest)).toContain('rest=kept');
    const grpcText = JSON.stringify(result.viaGrpc.task?.artifacts);
    expect(grpcText).toContain('grpc=kept');
    expect(result.viaGrpc.task?.context_id).toBe(contextId);
  });

  it('concurrent first messages of one new context (over both edges) create one session', async () => {
    const contextId = newId();
    const servers = edgesOf(ctx.server);
    const { result, created } = await createdBy(ctx, () =>
      Promise.all(Array.from({ length: 6 }, (_, i) => send(servers[i % servers.length]!, `echo n${i}`, contextId))),
    );
    expect(result.map((t) => t.status.state)).toEqual(Array(6).fill('TASK_STATE_COMPLETED'));
    expect(created).toHaveLength(1);
  });

  it('a context whose session ended gets a new one', async () => {
    const { result: first, created } = await createdBy(ctx, () => send(ctx.server, 'echo before'));
    const killed = await http(ctx.server, 'DELETE', `/api/v1/sessions/${created[0]!.session_id}`);
    expect(killed.status).toBeLessThan(300);
    await waitUntil('the session to close', async () => (await stateOf(ctx, created[0]!.session_id)) === 'closed');
    const { result: again, created: fresh } = await createdBy(ctx, () =>
      send(edgesOf(ctx.server).at(-1)!, 'echo after', first.contextId),
    );
    expect(again.status.state).toBe('TASK_STATE_COMPLETED');
    expect(output(again)).toContain('after');
    expect(fresh).toHaveLength(1);
  });

  it('a principal that may not create sessions is told what to do', async () => {
    const control = await ctx.mintToken({ scopes: ['pty:observe', 'pty:control'] });
    const r = await rpc(ctx, 'SendMessage', { message: bare('echo no') }, { token: control.token });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.message).toContain('metadata.session_id');
    expect(r.error?.message).toContain('pty:admin');
  });
});

describe('context sessions close once idle (PTYWS_CONTEXT_SESSION_IDLE_S)', () => {
  let ctx: TestContext;
  const send = (text: string, contextId?: string, configuration?: object) =>
    sendVia(ctx.server, text, contextId, configuration);

  beforeAll(async () => {
    ctx = await TestContext.start({ contextSessionIdleS: 1 });
  });
  afterAll(async () => {
    await ctx?.dispose();
  });

  it('an idle context loses its session; its next message gets a new one', async () => {
    const { result: task, created } = await createdBy(ctx, () => send('echo once'));
    const id = created[0]!.session_id;
    await waitUntil('the idle session to close', async () => (await stateOf(ctx, id)) === 'closed');
    const { result: again, created: fresh } = await createdBy(ctx, () => send('echo again', task.contextId));
    expect(again.status.state).toBe('TASK_STATE_COMPLETED');
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.session_id).not.toBe(id);
  });

  it('a running task keeps its session open past the idle time', async () => {
    const { result: task, created } = await createdBy(ctx, () =>
      send('sleep 4; echo slept', undefined, { returnImmediately: true }),
    );
    const id = created[0]!.session_id;
    await new Promise((r) => setTimeout(r, 2500)); // idle 1 s, swept every 0.5 s
    expect(await stateOf(ctx, id)).toBe('running');
    await waitUntil('the task to end', async () => {
      const t = await rpcOk<V1Task>(ctx, 'GetTask', { id: task.id });
      return t.status.state === 'TASK_STATE_COMPLETED';
    });
    await waitUntil('the session to close after it', async () => (await stateOf(ctx, id)) === 'closed');
  });
});
