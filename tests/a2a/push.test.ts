/**
 * Push notification configs over HTTP+JSON and JSON-RPC, and their delivery to a real local
 * webhook: authentication header, token, the task's events in order, retried after failures.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http } from '@pty-ws/testkit';
import {
  awaitState,
  gated,
  newSession,
  rest,
  restOk,
  rpc,
  rpcOk,
  textMessage,
  useServer,
  wsCall,
  type V1Task as Task,
} from './support';

/** A push notification body: an A2A v1.0 StreamResponse in ProtoJSON. */
type StreamEvent =
  | { statusUpdate: { taskId: string; contextId: string; status: { state: string } } }
  | { artifactUpdate: { taskId: string; artifact: unknown } };

/** A2A v1.0 TaskPushNotificationConfig as the HTTP bindings write it. */
interface TaskPushNotificationConfig {
  taskId: string;
  id: string;
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}

interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: StreamEvent;
}

/** The webhook: records every POST; answers the statuses queued for a path, then 200. */
class Webhook {
  readonly deliveries: Delivery[] = [];
  readonly failFirst = new Map<string, number[]>();
  private server!: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '';
        this.deliveries.push({
          path,
          headers: req.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as StreamEvent,
        });
        res.statusCode = this.failFirst.get(path)?.shift() ?? 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  at(path: string): Delivery[] {
    return this.deliveries.filter((d) => d.path === path);
  }

  async until(path: string, pred: (ds: Delivery[]) => boolean, timeoutMs = 8000): Promise<Delivery[]> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.at(path))) {
      if (Date.now() > deadline)
        throw new Error(`webhook ${path}: ${JSON.stringify(this.at(path).map((d) => d.body))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.at(path);
  }
}

const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELED', 'REJECTED'];
const stateOf = (e: StreamEvent) =>
  'statusUpdate' in e
    ? e.statusUpdate.status.state.replace(/^TASK_STATE_/, '')
    : 'artifactUpdate' in e
      ? 'artifact'
      : Object.keys(e)[0];
const isFinal = (ds: Delivery[]) => ds.some((d) => TERMINAL.includes(stateOf(d.body) ?? ''));

describe('A2A push notifications', () => {
  const ctx = useServer({ pushBackoffMs: 50, pushAttempts: 5, pushAllowedHosts: ['127.0.0.1'] });
  const hook = new Webhook();
  let session = '';

  beforeAll(async () => {
    await hook.start();
    session = await newSession(ctx());
  });
  afterAll(() => hook.stop());

  it('a config given with SendMessage receives WORKING, the artifact and COMPLETED, with its credentials', async () => {
    const { task } = await restOk<{ task: Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage('echo pushed-out', session),
      configuration: {
        returnImmediately: true,
        taskPushNotificationConfig: {
          url: `${hook.base}/send`,
          token: 'verify-me',
          authentication: { scheme: 'Bearer', credentials: 'hook-secret' },
        },
      },
    });
    const got = await hook.until('/send', isFinal);
    expect(got.map((d) => stateOf(d.body))).toEqual(['WORKING', 'artifact', 'COMPLETED']);
    for (const d of got) {
      expect(d.headers['authorization']).toBe('Bearer hook-secret');
      expect(d.headers['x-a2a-notification-token']).toBe('verify-me');
      expect(d.headers['content-type']).toBe('application/json');
    }
    const final = got[2]!.body as { statusUpdate: { taskId: string; status: { state: string } } };
    expect(final.statusUpdate.taskId).toBe(task.id);
    expect(final.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(got[1]!.body).toMatchObject({ artifactUpdate: { taskId: task.id, contextId: task.contextId } });
    expect(JSON.stringify(got[1]!.body)).toContain('pushed-out');
  });

  it('retries a failing webhook until it accepts: every notification arrives, in order', async () => {
    hook.failFirst.set('/flaky', [503, 500]);
    await restOk<{ task: Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage('echo flaky', session),
      configuration: { returnImmediately: true, taskPushNotificationConfig: { url: `${hook.base}/flaky` } },
    });
    const got = await hook.until('/flaky', isFinal);
    // The first notification was refused twice, then accepted; the others went through at once.
    expect(got.map((d) => stateOf(d.body))).toEqual(['WORKING', 'WORKING', 'WORKING', 'artifact', 'COMPLETED']);
    // Single-node mode serves the agent's counters on the edge's /metrics (cluster: the agent's own port).
    if (ctx().server.mode === 'embedded') {
      const metrics = await http(ctx().server, 'GET', '/metrics', { token: null });
      expect(metrics.text).toMatch(/ptyws_push_notifications_total\{[^}]*outcome="retried"[^}]*\} [1-9]/);
    }
  });

  it('CRUD over REST and JSON-RPC; credentials are never read back', async () => {
    const { task } = await restOk<{ task: Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage('sleep 30', session),
      configuration: { returnImmediately: true },
    });
    const created = await restOk<TaskPushNotificationConfig>(
      ctx(),
      'POST',
      `/tasks/${task.id}/pushNotificationConfigs`,
      {
        id: 'cfg-1',
        url: `${hook.base}/crud`,
        token: 't-1',
        authentication: { scheme: 'Basic', credentials: 'dXNlcjpwdw==' },
      },
    );
    expect(created).toEqual({
      taskId: task.id,
      id: 'cfg-1',
      url: `${hook.base}/crud`,
      authentication: { scheme: 'Basic' },
    });
    // Write-only (issue 13): neither the token nor the credentials come back.
    expect(created).not.toHaveProperty('token');
    const second = await rpcOk<TaskPushNotificationConfig>(ctx(), 'CreateTaskPushNotificationConfig', {
      taskId: task.id,
      url: `${hook.base}/crud2`,
    });
    expect(typeof second.id).toBe('string');

    expect(await rpcOk(ctx(), 'GetTaskPushNotificationConfig', { taskId: task.id, id: 'cfg-1' })).toEqual(created);
    const listed = await restOk<{ configs: TaskPushNotificationConfig[] }>(
      ctx(),
      'GET',
      `/tasks/${task.id}/pushNotificationConfigs`,
    );
    expect(listed.configs.map((c) => c.id)).toEqual(['cfg-1', second.id]);
    expect(await rpcOk(ctx(), 'ListTaskPushNotificationConfigs', { task_id: task.id })).toEqual(listed);

    // The cancel is delivered to both configs, with cfg-1's stored credentials.
    await restOk<Task>(ctx(), 'POST', `/tasks/${task.id}:cancel`);
    const crud = await hook.until('/crud', isFinal);
    expect(crud.map((d) => stateOf(d.body))).toEqual(['CANCELED']);
    expect(crud[0]!.headers['authorization']).toBe('Basic dXNlcjpwdw==');
    await hook.until('/crud2', isFinal);

    const del = await rest(ctx(), 'DELETE', `/tasks/${task.id}/pushNotificationConfigs/cfg-1`);
    expect(del.status).toBe(204);
    expect((await rpc(ctx(), 'DeleteTaskPushNotificationConfig', { task_id: task.id, id: second.id })).result).toEqual(
      {},
    );
    const gone = await rest(ctx(), 'GET', `/tasks/${task.id}/pushNotificationConfigs/cfg-1`);
    expect(gone.status).toBe(404);
    // ProtoJSON leaves an empty (not REQUIRED) list out.
    expect(await restOk<{ configs?: unknown[] }>(ctx(), 'GET', `/tasks/${task.id}/pushNotificationConfigs`)).toEqual(
      {},
    );
  });

  it('a config added to a running task gets the rest of its updates', async () => {
    const gate = gated('late-config');
    const { task } = await restOk<{ task: Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage(gate.command, session),
      configuration: { returnImmediately: true },
    });
    await awaitState(ctx(), task.id, ['WORKING']);
    await rpcOk(ctx(), 'SetTaskPushNotificationConfig', { task_id: task.id, url: `${hook.base}/late` });
    await gate.open();
    const got = await hook.until('/late', isFinal);
    expect(got.map((d) => stateOf(d.body))).toEqual(['artifact', 'COMPLETED']);
  });

  it('rejects bad configs and unknown tasks', async () => {
    const { task } = await restOk<{ task: Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage('echo x', session),
    });
    const path = `/tasks/${task.id}/pushNotificationConfigs`;
    for (const bad of [
      {},
      { url: 'ftp://x.example/hook' },
      { url: 'not a url' },
      { url: `${hook.base}/x`, token: 5 },
    ]) {
      const r = await rest(ctx(), 'POST', path, bad);
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain('INVALID_PARAMS');
    }
    const unknown = await rest(ctx(), 'POST', '/tasks/0190aaaa-0000-7000-8000-00000000000f/pushNotificationConfigs', {
      url: `${hook.base}/x`,
    });
    expect(unknown.status).toBe(404);
  });

  it('over pty-ws/v1 push config operations stay UNSUPPORTED_OPERATION with the REST/JSON-RPC fallback', async () => {
    const ws = await ctx().attach(session);
    const r = await wsCall<{ code: string; a2a_error: { data?: { fallback?: string[] } } }>(
      ws,
      'SetTaskPushNotificationConfig',
      { task_id: 'x', push_notification_config: { url: `${hook.base}/ws` } },
    );
    expect(r.op).toBe('Error');
    expect(r.payload.code).toBe('UNSUPPORTED_OPERATION');
    expect(r.payload.a2a_error.data?.fallback).toEqual(['HTTP+JSON', 'JSONRPC']);
  });
});
