/**
 * lf.a2a.v1.A2AService over gRPC, with a client generated from proto/: the same task scenarios
 * as the WebSocket binding, on the same task store — a task sent over one binding is fetched,
 * listed and cancelled over the other with identical results — plus auth, extension activation
 * and bad input mapped to gRPC status codes.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { A2A_TYPES, decodeRpcStatus, fromProtoMessage, type a2a } from '@pty-ws/a2a-proto';
import { EXTENSION_URI, newId, type Task } from '@pty-ws/protocol';
import { is, taskUpdateOf, type TestClient } from '@pty-ws/testkit';
import { call, clients, collect, grpc, meta, statusOf, useGrpcServer, type Clients } from './support';

const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELED', 'REJECTED'];

describe('gRPC A2AService', () => {
  const ctx = useGrpcServer();
  let c: Clients;
  /** Another edge's clients in cluster mode (the same edge in embedded mode). */
  let other: Clients;
  let sessionId = '';
  let ws: TestClient;
  const svc = () => c.a2a;
  const asAdmin = () => meta(ctx().server.adminToken);

  /** A user message that runs `text` in the test session. */
  const message = (text: string, session = sessionId): a2a.Message => ({
    message_id: newId(),
    role: 'ROLE_USER',
    parts: [{ text }],
    metadata: { fields: { session_id: { stringValue: session } } },
  });
  const toTask = (t: a2a.Task__Output | undefined): Task => fromProtoMessage<Task>(A2A_TYPES.Task, t ?? {});
  const wsTask = async (id: string, historyLength = 10): Promise<Task> => {
    const r = await ws.request('GetTask', { task_id: id, history_length: historyLength });
    expect(r.op).toBe('GetTask.Response');
    return (r.payload as { task: Task }).task;
  };
  const getTask = async (id: string, client = svc(), historyLength = 10) =>
    toTask(await call(client, client.GetTask, { id, history_length: historyLength }, asAdmin()));
  const awaitTerminal = async (id: string): Promise<Task> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const t = await getTask(id);
      if (TERMINAL.includes(t.status.state)) return t;
      if (Date.now() > deadline) throw new Error(`task ${id} still ${t.status.state}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    const addresses = ctx().server.grpcAddresses;
    expect(addresses).toHaveLength(ctx().server.mode === 'cluster' ? 2 : 1);
    c = clients(addresses[0]!);
    other = clients(addresses.at(-1)!);
    sessionId = (
      await ctx().createSession({ argv: ['/bin/sh'], env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } })
    ).session_id;
    ws = await ctx().attach(sessionId);
  });
  afterAll(() => {
    c?.close();
    other?.close();
  });

  it('SendMessage runs the task to its end; GetTask over gRPC and WebSocket return the same task', async () => {
    const res = await call(svc(), svc().SendMessage, { message: message('echo grpc_$((40+2))') }, asAdmin());
    expect(res.payload).toBe('task');
    const task = toTask(res.task);
    expect(task.status.state).toBe('COMPLETED');
    expect(JSON.stringify(task.artifacts)).toContain('grpc_42');
    expect(task.history?.[0]?.parts).toEqual([{ text: 'echo grpc_$((40+2))' }]);

    expect(await getTask(task.id, other.a2a)).toEqual(await wsTask(task.id));
  });

  it('SendStreamingMessage streams the task, then its updates, ending with the final state', async () => {
    const events = await collect(
      svc().SendStreamingMessage({ message: message('sleep 0.2; echo streamed') }, asAdmin()),
    );
    expect(events[0]?.payload).toBe('task');
    const first = toTask(events[0]!.task);
    expect(first.status.state).toBe('SUBMITTED');
    const rest = events.slice(1);
    expect(rest.every((e) => (e.status_update ?? e.artifact_update)?.task_id === first.id)).toBe(true);
    const states = rest.flatMap((e) => (e.status_update ? [e.status_update.status!.state] : []));
    expect(states).toContain('TASK_STATE_WORKING');
    // The output as an artifact update, then the final status last.
    expect(rest.at(-1)?.status_update?.status?.state).toBe('TASK_STATE_COMPLETED');
    const artifact = rest.find((e) => e.artifact_update)?.artifact_update?.artifact;
    expect(JSON.stringify(artifact?.parts)).toContain('streamed');
    expect(await getTask(first.id)).toEqual(await wsTask(first.id));
  });

  it('SendStreamingMessage streams the output while the task runs (append chunks), then the whole artifact', async () => {
    const gate = path.join(os.tmpdir(), `pty-ws-grpc-gate-${newId()}`);
    const stream = svc().SendStreamingMessage(
      {
        message: message(`echo grpc-early; while [ ! -e ${gate} ]; do sleep 0.05; done; rm -f ${gate}; echo grpc-late`),
      },
      asAdmin(),
    );
    const events: a2a.StreamResponse__Output[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      stream.on('error', reject);
      stream.on('end', () => resolve());
    });
    const chunk = await new Promise<a2a.StreamResponse__Output>((resolve) =>
      stream.on('data', (e: a2a.StreamResponse__Output) => {
        events.push(e);
        if (e.artifact_update) resolve(e);
      }),
    );
    expect(chunk.artifact_update?.append).toBe(true);
    expect(JSON.stringify(chunk.artifact_update?.artifact?.parts)).toContain('grpc-early');
    // The command waits for the gate: the chunk came while the task was running.
    expect((await getTask(chunk.artifact_update!.task_id!)).status.state).toBe('WORKING');
    await writeFile(gate, '');
    await ended;
    const last = events.filter((e) => e.artifact_update).at(-1)!.artifact_update!;
    expect(last.last_chunk).toBe(true);
    expect(JSON.stringify(last.artifact?.parts)).toMatch(/grpc-early\\ngrpc-late/);
    expect(events.at(-1)?.status_update?.status?.state).toBe('TASK_STATE_COMPLETED');
  });

  it('ListTasks is agent-scoped: it lists tasks sent over the WebSocket too', async () => {
    const r = await ws.request('SendMessage', {
      message: { message_id: newId(), role: 'ROLE_USER', parts: [{ text: 'echo from_ws' }] },
    });
    const wsTaskId = (r.payload as { task: Task }).task.id;
    await awaitTerminal(wsTaskId);
    const listed = await call(svc(), svc().ListTasks, { page_size: 100 }, asAdmin());
    const tasks = (listed.tasks ?? []).map((t) => toTask(t));
    expect(tasks.map((t) => t.id)).toContain(wsTaskId);
    const viaWs = ((await ws.request('ListTasks', { page_size: 100 })).payload as { tasks: Task[] }).tasks;
    // The same objects, whichever binding lists them.
    for (const t of viaWs) expect(tasks.find((x) => x.id === t.id)).toEqual(t);
    const completed = await call(svc(), svc().ListTasks, { status: 'TASK_STATE_COMPLETED' }, asAdmin());
    expect((completed.tasks ?? []).every((t) => t.status?.state === 'TASK_STATE_COMPLETED')).toBe(true);
  });

  it('a task started over WebSocket is cancelled over gRPC; its WebSocket subscriber sees CANCELED', async () => {
    const from = ws.mark();
    const id = ws.send('SendStreamingMessage', {
      message: { message_id: newId(), role: 'ROLE_USER', parts: [{ text: 'sleep 30' }] },
    });
    const accepted = await ws.waitFor(is.reply(id), 5000, from);
    const taskId = (accepted.type === 'json' ? (accepted.frame.payload as { task_id: string }) : { task_id: '' })
      .task_id;
    await ws.waitFor((f) => is.taskUpdate(taskId)(f) && taskUpdateOf(f)?.task.status.state === 'WORKING', 5000, from);

    const canceled = toTask(await call(other.a2a, other.a2a.CancelTask, { id: taskId }, asAdmin()));
    expect(canceled.status.state).toBe('CANCELED');
    const last = await ws.waitFor((f) => is.taskUpdate(taskId)(f) && taskUpdateOf(f)?.delta.final === true, 5000, from);
    expect(taskUpdateOf(last)?.task.status.state).toBe('CANCELED');
    expect(await getTask(taskId)).toEqual(await wsTask(taskId));
    // Cancelling again: the task is terminal.
    const again = await statusOf(call(svc(), svc().CancelTask, { id: taskId }, asAdmin()));
    expect(again.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(again.a2a).toMatchObject({ type: 'TaskNotCancelable' });
  });

  it('a task started over gRPC is followed with SubscribeToTask and cancelled over WebSocket', async () => {
    const res = await call(
      svc(),
      svc().SendMessage,
      { message: message('sleep 30'), configuration: { return_immediately: true } },
      asAdmin(),
    );
    const taskId = res.task!.id!;
    const stream = other.a2a.SubscribeToTask({ id: taskId }, asAdmin());
    const events = collect(stream);
    // Subscribed (the snapshot arrived) before the cancel: a canceled task cannot be subscribed to.
    await new Promise((resolve) => stream.once('data', resolve));
    const r = await ws.request('CancelTask', { task_id: taskId });
    expect(r.op).toBe('CancelTask.Response');
    const got = await events;
    expect(got[0]?.payload).toBe('task');
    expect(got.at(-1)?.status_update?.status?.state ?? got.at(-1)?.task?.status?.state).toBe('TASK_STATE_CANCELED');
    expect(await getTask(taskId)).toEqual(await wsTask(taskId));
    expect((r.payload as { task: Task }).task).toEqual(await getTask(taskId));
  });

  it('push notification configs: create, get, list, delete', async () => {
    const res = await call(
      svc(),
      svc().SendMessage,
      { message: message('echo push'), configuration: { return_immediately: true } },
      asAdmin(),
    );
    const taskId = res.task!.id!;
    const created = await call(
      svc(),
      svc().CreateTaskPushNotificationConfig,
      {
        task_id: taskId,
        url: 'http://127.0.0.1:9/hook',
        token: 'tok',
        authentication: { scheme: 'Bearer', credentials: 'sekrit' },
      },
      asAdmin(),
    );
    expect(created.task_id).toBe(taskId);
    expect(created.id).toBeTruthy();
    const got = await call(
      other.a2a,
      other.a2a.GetTaskPushNotificationConfig,
      { task_id: taskId, id: created.id },
      asAdmin(),
    );
    expect(got).toEqual(created);
    const list = await call(svc(), svc().ListTaskPushNotificationConfigs, { task_id: taskId }, asAdmin());
    expect(list.configs?.map((x) => x.id)).toEqual([created.id]);
    await call(svc(), svc().DeleteTaskPushNotificationConfig, { task_id: taskId, id: created.id }, asAdmin());
    const gone = await statusOf(
      call(svc(), svc().GetTaskPushNotificationConfig, { task_id: taskId, id: created.id }, asAdmin()),
    );
    expect(gone.code).toBe(grpc.status.NOT_FOUND);
  });

  it('auth: bearer metadata required; scopes and session-bound tokens enforced', async () => {
    const none = await statusOf(call(svc(), svc().GetTask, { id: 'x' }, meta(null)));
    expect(none.code).toBe(grpc.status.UNAUTHENTICATED);
    expect(none.a2a).toMatchObject({ type: 'Unauthenticated' });
    expect((await statusOf(call(svc(), svc().GetTask, { id: 'x' }, meta('ptyws_bogus')))).code).toBe(
      grpc.status.UNAUTHENTICATED,
    );
    const observer = await ctx().mintToken({ scopes: ['pty:observe'] });
    const denied = await statusOf(
      call(svc(), svc().SendMessage, { message: message('echo no') }, meta(observer.token)),
    );
    expect(denied.code).toBe(grpc.status.PERMISSION_DENIED);

    // A token bound to another session does not see this session's tasks.
    const otherSession = (await ctx().createSession({ argv: ['/bin/sh'] })).session_id;
    const bound = await ctx().mintToken({ scopes: ['pty:control'], session_id: otherSession });
    const mine = await call(svc(), svc().SendMessage, { message: message('true') }, asAdmin());
    const hidden = await statusOf(call(svc(), svc().GetTask, { id: mine.task!.id }, meta(bound.token)));
    expect(hidden.code).toBe(grpc.status.NOT_FOUND);
  });

  it('activating pty-extensions/v1 is UnsupportedExtension; an unknown instance is NOT_FOUND', async () => {
    const ext = await statusOf(
      call(svc(), svc().ListTasks, {}, meta(ctx().server.adminToken, { 'a2a-extensions': EXTENSION_URI })),
    );
    expect(ext.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(ext.a2a).toMatchObject({ type: 'UnsupportedExtension' });
    expect((await statusOf(call(svc(), svc().ListTasks, { tenant: 'elsewhere' }, asAdmin()))).code).toBe(
      grpc.status.NOT_FOUND,
    );
  });

  it('A2A errors carry google.rpc.ErrorInfo in grpc-status-details-bin (A2A §10.6)', async () => {
    const err = (await call(svc(), svc().GetTask, { id: newId() }, asAdmin()).catch((e: unknown) => e)) as {
      code: number;
      metadata: grpc.Metadata;
    };
    expect(err.code).toBe(grpc.status.NOT_FOUND);
    const raw = err.metadata.get('grpc-status-details-bin')[0];
    expect(Buffer.isBuffer(raw)).toBe(true);
    const status = decodeRpcStatus(raw as Buffer);
    expect(status.code).toBe(grpc.status.NOT_FOUND);
    expect(status.details).toEqual([
      expect.objectContaining({
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'TASK_NOT_FOUND',
        domain: 'a2a-protocol.org',
      }),
    ]);
  });

  describe('A2A TCK checks (gRPC)', () => {
    let finished: Task;
    beforeAll(async () => {
      finished = toTask((await call(svc(), svc().SendMessage, { message: message('echo tck') }, asAdmin())).task);
      expect(finished.status.state).toBe('COMPLETED');
    });

    it('STREAM-SUB-003: SubscribeToTask on a task in a terminal state is UnsupportedOperationError (UNIMPLEMENTED)', async () => {
      const refused = await statusOf(collect(svc().SubscribeToTask({ id: finished.id }, asAdmin())));
      expect(refused.code).toBe(grpc.status.UNIMPLEMENTED);
      expect(refused.a2a).toMatchObject({ type: 'UnsupportedOperation', code: -32004 });
    });

    it('CORE-SEND-002: a message to a task in a terminal state is UnsupportedOperationError, unary and streaming', async () => {
      const followUp = { ...message('echo again'), task_id: finished.id, context_id: finished.context_id };
      const unary = await statusOf(call(svc(), svc().SendMessage, { message: followUp }, asAdmin()));
      expect(unary.code).toBe(grpc.status.UNIMPLEMENTED);
      expect(unary.a2a).toMatchObject({ type: 'UnsupportedOperation' });
      const streamed = await statusOf(collect(svc().SendStreamingMessage({ message: followUp }, asAdmin())));
      expect(streamed.code).toBe(grpc.status.UNIMPLEMENTED);
    });

    it('CORE-SEND-003: a part of an unsupported media type is ContentTypeNotSupportedError (INVALID_ARGUMENT)', async () => {
      const raw = {
        ...message('x'),
        parts: [{ raw: Buffer.from('tck'), media_type: 'application/x-unsupported-tck-type' }],
      };
      const refused = await statusOf(call(svc(), svc().SendMessage, { message: raw }, asAdmin()));
      expect(refused.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(refused.a2a).toMatchObject({ type: 'ContentTypeNotSupported', code: -32005 });
    });

    it('GRPC-ERR-002: an unsupported a2a-version metadata is VersionNotSupportedError (UNIMPLEMENTED)', async () => {
      const versioned = (v: string) => meta(ctx().server.adminToken, { 'a2a-version': v });
      const refused = await statusOf(call(svc(), svc().GetTask, { id: finished.id }, versioned('99.0')));
      expect(refused.code).toBe(grpc.status.UNIMPLEMENTED);
      expect(refused.a2a).toMatchObject({ type: 'VersionNotSupported', code: -32009 });
      const stream = await statusOf(collect(svc().SubscribeToTask({ id: finished.id }, versioned('0.3'))));
      expect(stream.code).toBe(grpc.status.UNIMPLEMENTED);
      // The versions it speaks are served.
      for (const v of ['1.0', '1']) {
        expect(toTask(await call(svc(), svc().GetTask, { id: finished.id }, versioned(v))).id).toBe(finished.id);
      }
    });
  });

  it('bad input: INVALID_ARGUMENT, NOT_FOUND, UNIMPLEMENTED', async () => {
    expect((await statusOf(call(svc(), svc().GetTask, { id: newId() }, asAdmin()))).code).toBe(grpc.status.NOT_FOUND);
    expect((await statusOf(call(svc(), svc().GetTask, {}, asAdmin()))).code).toBe(grpc.status.INVALID_ARGUMENT);
    expect((await statusOf(call(svc(), svc().SendMessage, {}, asAdmin()))).code).toBe(grpc.status.INVALID_ARGUMENT);
    // A caller that may not create sessions (no pty:admin) must name one.
    const controller = await ctx().mintToken({ scopes: ['pty:control'] });
    const noSession = await statusOf(
      call(
        svc(),
        svc().SendMessage,
        { message: { message_id: newId(), role: 'ROLE_USER', parts: [{ text: 'x' }] } },
        meta(controller.token),
      ),
    );
    expect(noSession.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(noSession.details).toMatch(/session/);
    expect(
      (await statusOf(call(svc(), svc().SendMessage, { message: message('x', 'no-such-session') }, asAdmin()))).code,
    ).toBe(grpc.status.INVALID_ARGUMENT);
    // ExtendedAgentCardNotConfigured (A2A §5.4: FAILED_PRECONDITION), as on the HTTP bindings.
    expect((await statusOf(call(svc(), svc().GetExtendedAgentCard, {}, asAdmin()))).code).toBe(
      grpc.status.FAILED_PRECONDITION,
    );
  });
});
