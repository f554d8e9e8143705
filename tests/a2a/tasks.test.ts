/**
 * One task store behind every binding: a task started over pty-ws/v1, HTTP+JSON or JSON-RPC is
 * read, listed and cancelled over the others (issue 7). The HTTP bindings write A2A v1.0 JSON
 * (lowerCamelCase, TASK_STATE_ names), byte for byte the pty-ws/v1 task mapped by `toA2aV1`.
 */
import type { Task } from '@pty-ws/protocol';
import type { TestClient } from '@pty-ws/testkit';
import {
  asV1,
  awaitState,
  newSession,
  rest,
  restOk,
  rpc,
  rpcOk,
  textMessage,
  useServer,
  wsCall,
  wsTask,
  type V1List as ListResult,
  type V1Task,
} from './support';

describe('A2A tasks across pty-ws/v1, HTTP+JSON and JSON-RPC', () => {
  const ctx = useServer();
  let sessionA = '';
  let sessionB = '';
  let ws: TestClient;

  beforeAll(async () => {
    sessionA = await newSession(ctx());
    sessionB = await newSession(ctx());
    ws = await ctx().attach(sessionA);
  });

  /** The same task read over all three bindings. */
  async function readEverywhere(taskId: string): Promise<{ ws: V1Task; rest: V1Task; rpc: V1Task }> {
    return {
      ws: asV1(await wsTask(ws, taskId)),
      rest: await restOk<V1Task>(ctx(), 'GET', `/tasks/${taskId}`),
      rpc: await rpcOk<V1Task>(ctx(), 'GetTask', { id: taskId }),
    };
  }

  it('a task sent over pty-ws/v1 reads the same over REST and JSON-RPC', async () => {
    const sent = await wsCall<{ task: Task }>(ws, 'SendMessage', { message: textMessage('echo from-ws') });
    expect(sent.op).toBe('SendMessage.Response');
    const task = sent.payload.task;
    expect(task.status.state).toBe('COMPLETED');
    const got = await readEverywhere(task.id);
    expect(got.rest).toEqual(got.ws);
    expect(got.rpc).toEqual(got.ws);
    expect(JSON.stringify(got.rest)).toBe(JSON.stringify(got.ws));
    expect(got.ws).toEqual(asV1(task));
    expect(got.rest.status.state).toBe('TASK_STATE_COMPLETED');
    expect(got.rest.contextId).toBe(task.context_id);
  });

  it('a task sent over REST (session from message.metadata) reads the same over pty-ws/v1 and JSON-RPC', async () => {
    const res = await restOk<{ task: V1Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage('echo from-rest', sessionA),
    });
    expect(res.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(JSON.stringify(res.task.artifacts)).toContain('from-rest');
    const got = await readEverywhere(res.task.id);
    expect(JSON.stringify(got.ws)).toBe(JSON.stringify(got.rest));
    expect(got.rpc).toEqual(got.ws);
    expect(got.rest).toEqual(res.task);
  });

  it('a task sent over JSON-RPC (camelCase, as A2A clients write it) reads the same over the others', async () => {
    const result = await rpcOk<{ task: V1Task }>(ctx(), 'SendMessage', {
      message: {
        messageId: 'm-rpc-1',
        role: 'ROLE_USER',
        parts: [{ text: 'echo from-rpc' }],
        metadata: { sessionId: sessionA },
      },
    });
    expect(result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const got = await readEverywhere(result.task.id);
    expect(got.ws).toEqual(got.rest);
    expect(got.rpc).toEqual(got.rest);
    expect(got.rest.history?.[0]).toMatchObject({ messageId: 'm-rpc-1', role: 'ROLE_USER' });
  });

  it('history_length trims the history the same way on every binding', async () => {
    const { task } = await restOk<{ task: V1Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage('echo trim', sessionA),
    });
    const viaWs = (await wsCall<{ task: Task }>(ws, 'GetTask', { task_id: task.id, history_length: 0 })).payload.task;
    const viaRest = await restOk<V1Task>(ctx(), 'GET', `/tasks/${task.id}?historyLength=0`);
    const viaRpc = await rpcOk<V1Task>(ctx(), 'GetTask', { id: task.id, history_length: 0 });
    expect(viaWs.history).toEqual([]);
    expect(viaRest.history).toBeUndefined(); // ProtoJSON leaves an empty list out
    expect(viaRest).toEqual(asV1(viaWs));
    expect(viaRpc).toEqual(asV1(viaWs));
  });

  it('ListTasks is agent-scoped over REST/JSON-RPC and session-scoped over pty-ws/v1', async () => {
    const inB = await restOk<{ task: V1Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage('echo in-b', sessionB),
    });
    const inA = await restOk<{ task: V1Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage('echo in-a', sessionA),
    });
    const all = await restOk<ListResult>(ctx(), 'GET', '/tasks?pageSize=100');
    const ids = all.tasks.map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([inA.task.id, inB.task.id]));
    // Newest first, the pty-ws order.
    expect(ids.indexOf(inA.task.id)).toBeLessThan(ids.indexOf(inB.task.id));
    expect(all.nextPageToken).toBe('');

    const viaRpc = await rpcOk<ListResult>(ctx(), 'ListTasks', { pageSize: 100 });
    expect(viaRpc.tasks).toEqual(all.tasks);

    const onlyB = await restOk<ListResult>(ctx(), 'GET', `/tasks?session_id=${sessionB}`);
    expect(onlyB.tasks.map((t) => t.id)).toEqual([inB.task.id]);

    const overWs = await wsCall<{ tasks: Task[] }>(ws, 'ListTasks', { page_size: 100 });
    const wsIds = overWs.payload.tasks.map((t) => t.id);
    expect(wsIds).toContain(inA.task.id);
    expect(wsIds).not.toContain(inB.task.id);
    // The session's tasks are the same objects either way.
    const restA = all.tasks.filter((t) => wsIds.includes(t.id));
    expect(restA).toEqual(overWs.payload.tasks.map(asV1));
  });

  it('pages with the same keyset tokens and filters by state and context', async () => {
    const first = await restOk<ListResult>(ctx(), 'GET', '/tasks?pageSize=2');
    expect(first.tasks).toHaveLength(2);
    expect(first.nextPageToken).not.toBe('');
    const second = await rpcOk<ListResult>(ctx(), 'ListTasks', { page_size: 2, page_token: first.nextPageToken });
    expect(second.tasks.map((t) => t.id)).not.toEqual(expect.arrayContaining(first.tasks.map((t) => t.id)));

    const completed = await restOk<ListResult>(ctx(), 'GET', '/tasks?status=TASK_STATE_COMPLETED&pageSize=100');
    expect(completed.tasks.length).toBeGreaterThan(0);
    expect(completed.tasks.every((t) => t.status.state === 'TASK_STATE_COMPLETED')).toBe(true);
    const kebab = await restOk<ListResult>(ctx(), 'GET', '/tasks?status=completed&pageSize=100');
    expect(kebab.tasks.map((t) => t.id)).toEqual(completed.tasks.map((t) => t.id));
    const ctxId = completed.tasks[0]!.contextId;
    const byContext = await rpcOk<ListResult>(ctx(), 'ListTasks', { contextId: ctxId });
    expect(byContext.tasks.every((t) => t.contextId === ctxId)).toBe(true);
    expect(byContext.tasks.length).toBeGreaterThan(0);
  });

  it('a task started over pty-ws/v1 is cancelled over REST; the socket sees the final CANCELED', async () => {
    const ack = await wsCall<{ task_id: string }>(ws, 'SendStreamingMessage', { message: textMessage('sleep 30') });
    expect(ack.op).toBe('SendStreamingMessage.Accepted');
    const taskId = ack.payload.task_id;
    await awaitState(ctx(), taskId, ['WORKING']);
    const canceled = await restOk<V1Task>(ctx(), 'POST', `/tasks/${taskId}:cancel`);
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    const final = await ws.waitFor(
      (r) =>
        r.type === 'json' &&
        r.frame.op === 'TaskStatusUpdate' &&
        (r.frame.payload as { delta: { task_id: string; final: boolean } }).delta.task_id === taskId &&
        (r.frame.payload as { delta: { final: boolean } }).delta.final,
      5000,
    );
    expect((final.type === 'json' && (final.frame.payload as { task: Task }).task.status.state) || '').toBe('CANCELED');
    expect(await rpcOk<V1Task>(ctx(), 'GetTask', { id: taskId })).toEqual(asV1(await wsTask(ws, taskId)));

    // Cancelling again: TaskNotCancelable on every binding.
    const again = await rest(ctx(), 'POST', `/tasks/${taskId}:cancel`);
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).toContain('TASK_NOT_CANCELABLE');
    const againRpc = await rpc(ctx(), 'CancelTask', { id: taskId });
    expect(againRpc.error?.code).toBe(-32002);
    const againWs = await wsCall<{ code: string }>(ws, 'CancelTask', { task_id: taskId });
    expect(againWs.payload.code).toBe('TASK_NOT_CANCELABLE');
  });

  it('a task started over JSON-RPC (return immediately) is cancelled over pty-ws/v1 and reads CANCELED over REST', async () => {
    const started = await rpcOk<{ task: V1Task }>(ctx(), 'SendMessage', {
      message: textMessage('sleep 30', sessionA),
      configuration: { returnImmediately: true },
    });
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(started.task.status.state);
    const canceled = await wsCall<{ task: Task }>(ws, 'CancelTask', { task_id: started.task.id });
    expect(canceled.op).toBe('CancelTask.Response');
    expect(canceled.payload.task.status.state).toBe('CANCELED');
    expect(await restOk<V1Task>(ctx(), 'GET', `/tasks/${started.task.id}`)).toEqual(asV1(canceled.payload.task));
  });

  it('unknown tasks are TaskNotFound everywhere', async () => {
    const missing = '0190aaaa-0000-7000-8000-000000000000';
    const r = await rest(ctx(), 'GET', `/tasks/${missing}`);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      error: { code: 404, status: 'NOT_FOUND', details: [{ reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }] },
    });
    expect((await rpc(ctx(), 'GetTask', { id: missing })).error?.code).toBe(-32001);
    expect((await rpc(ctx(), 'CancelTask', { id: missing })).error?.code).toBe(-32001);
    expect((await wsCall<{ code: string }>(ws, 'GetTask', { task_id: missing })).payload.code).toBe('TASK_NOT_FOUND');
  });
});
