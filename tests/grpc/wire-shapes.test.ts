/**
 * Data-model preservation (binding §1.1): every A2A object the server sends over the WebSocket
 * binding is the proto3 JSON encoding of its `lf.a2a.v1` message. Each task, message and status
 * event a real session emits is encoded to protobuf wire bytes with the types generated from
 * proto/ and decoded back: it must come back unchanged, except for the one documented
 * binding-only field (`TaskStatusUpdateEvent.final`).
 */
import { isDeepStrictEqual } from 'node:util';
import { A2A_TYPES, BINDING_ONLY_FIELDS, a2aJson } from '@pty-ws/a2a-proto';
import { newId, type Message, type Task, type TaskStatusUpdatePayload } from '@pty-ws/protocol';
import { TestContext, is, taskUpdateOf, type TestClient } from '@pty-ws/testkit';

function userMessage(text: string, extra: Partial<Message> = {}): Message {
  return { message_id: newId(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/** The object without the binding-only fields of its type. */
function withoutBindingOnly(typeName: string, obj: Record<string, unknown>): Record<string, unknown> {
  const drop = BINDING_ONLY_FIELDS[typeName] ?? [];
  return Object.fromEntries(Object.entries(obj).filter(([k]) => !drop.includes(k)));
}

describe('WebSocket A2A shapes round-trip through the generated proto types', () => {
  let ctx: TestContext;
  let c: TestClient;
  const seen: { type: string; value: Record<string, unknown>; where: string }[] = [];
  const see = (type: string, value: unknown, where: string) =>
    seen.push({ type, value: value as Record<string, unknown>, where });

  beforeAll(async () => {
    ctx = await TestContext.start();
    const sessionId = (
      await ctx.createSession({
        argv: ['/bin/sh'],
        env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
        cols: 80,
        rows: 24,
      })
    ).session_id;
    c = await ctx.attach(sessionId);

    // Completed with output, failed with an exit code, streamed, subscribed, canceled, listed.
    const ok = await c.request('SendMessage', {
      message: userMessage('printf "a\\tb\\n"; echo ünïcode', { metadata: { origin: 'test', n: [1, { x: null }] } }),
    });
    see(A2A_TYPES.Task, (ok.payload as { task: Task }).task, 'SendMessage.Response');
    const failed = await c.request('SendMessage', { message: userMessage('echo oops >&2; exit 3') });
    see(A2A_TYPES.Task, (failed.payload as { task: Task }).task, 'SendMessage.Response (failed)');

    const from = c.mark();
    const streamId = c.send('SendStreamingMessage', { message: userMessage('sleep 0.2; echo streamed') });
    const accepted = await c.waitFor(is.reply(streamId), 5000, from);
    const streamTask = (accepted.type === 'json' ? accepted.frame.payload : {}) as { task_id: string };
    await c.waitFor((r) => is.taskUpdate(streamTask.task_id)(r) && taskUpdateOf(r)?.delta.final === true, 10_000);

    const long = c.send('SendStreamingMessage', { message: userMessage('sleep 30') });
    const longAccepted = await c.waitFor(is.reply(long), 5000);
    const longId = (longAccepted.type === 'json' ? longAccepted.frame.payload : {}) as { task_id: string };
    await c.request('SubscribeToTask', { task_id: longId.task_id });
    const canceled = await c.request('CancelTask', { task_id: longId.task_id });
    see(A2A_TYPES.Task, (canceled.payload as { task: Task }).task, 'CancelTask.Response');
    await c.waitFor((r) => is.taskUpdate(longId.task_id)(r) && taskUpdateOf(r)?.delta.final === true, 10_000);

    const got = await c.request('GetTask', { task_id: streamTask.task_id, history_length: 10 });
    see(A2A_TYPES.Task, (got.payload as { task: Task }).task, 'GetTask.Response');
    const listed = await c.request('ListTasks', { page_size: 50 });
    for (const t of (listed.payload as { tasks: Task[] }).tasks) see(A2A_TYPES.Task, t, 'ListTasks.Response');

    for (const r of c.frames.filter(is.taskUpdate())) {
      const u = taskUpdateOf(r) as TaskStatusUpdatePayload;
      see(A2A_TYPES.Task, u.task, 'TaskStatusUpdate.task');
      see(A2A_TYPES.TaskStatusUpdateEvent, u.delta, 'TaskStatusUpdate.delta');
    }
    for (const s of [...seen]) {
      const task = s.value as unknown as Task;
      if (s.type !== A2A_TYPES.Task) continue;
      for (const m of task.history ?? []) see(A2A_TYPES.Message, m, `${s.where} history`);
      if (task.status.message) see(A2A_TYPES.Message, task.status.message, `${s.where} status.message`);
      for (const a of task.artifacts ?? []) see(A2A_TYPES.Artifact, a, `${s.where} artifact`);
    }
  }, 60_000);

  afterAll(async () => {
    await ctx?.dispose();
  });

  it('saw every kind of object, including status messages, artifacts and every terminal state', () => {
    const types = new Set(seen.map((s) => s.type));
    expect([...types].sort()).toEqual(
      [A2A_TYPES.Task, A2A_TYPES.TaskStatusUpdateEvent, A2A_TYPES.Message, A2A_TYPES.Artifact].sort(),
    );
    const states = new Set(
      seen.filter((s) => s.type === A2A_TYPES.Task).map((s) => (s.value as unknown as Task).status.state),
    );
    for (const st of ['WORKING', 'COMPLETED', 'FAILED', 'CANCELED']) expect(states).toContain(st);
  });

  it('each one survives JSON → protobuf bytes → JSON unchanged (binding-only fields aside)', () => {
    const lost = seen
      .map((s) => ({ ...s, back: a2aJson().roundTrip(s.type, s.value) }))
      .filter((s) => !isDeepStrictEqual(s.back, withoutBindingOnly(s.type, s.value)));
    expect(lost.map((l) => ({ where: l.where, sent: l.value, back: l.back }))).toEqual([]);
    expect(seen.length).toBeGreaterThan(20);
  });

  it('the only binding-only field is the update event `final`, and it follows from the state', () => {
    expect(BINDING_ONLY_FIELDS).toEqual({ [A2A_TYPES.TaskStatusUpdateEvent]: ['final'] });
    for (const s of seen.filter((x) => x.type === A2A_TYPES.TaskStatusUpdateEvent)) {
      const ev = s.value as { final: boolean; status: { state: string } };
      expect(ev.final).toBe(
        ['COMPLETED', 'FAILED', 'CANCELED', 'INPUT_REQUIRED', 'REJECTED'].includes(ev.status.state),
      );
    }
  });
});
