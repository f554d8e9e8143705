/**
 * A2A core operations over the binding (§4, scenario 2), the deterministic task executor, and
 * service-parameter propagation (§9, scenario 13).
 */
import { CORE_OPERATIONS, type Task, type TaskStatusUpdatePayload } from '@pty-ws/protocol';
import { delay, is, joinSession, seqOf, taskUpdateOf, type Received, type TestClient } from '@pty-ws/testkit';
import {
  artifactText,
  awaitTerminal,
  expectBindingError,
  hasKeyValue,
  jsonOf,
  mentionsExitCode,
  payloadOf,
  shell,
  useServer,
  userMessage,
} from './support';

function expectResponse(
  frame: { op: string; id: string; sequence?: number; ts: string },
  op: string,
  id: string,
): void {
  expect(frame.op).toBe(op);
  expect(frame.id).toBe(id);
  expect(Number.isInteger(frame.sequence)).toBe(true);
  expect(Number.isNaN(Date.parse(frame.ts))).toBe(false);
}

async function send(
  c: TestClient,
  op: string,
  payload: unknown,
): Promise<{ id: string; frame: ReturnType<typeof jsonOf> }> {
  const from = c.mark();
  const id = c.send(op, payload);
  const frame = jsonOf(await c.waitFor(is.reply(id), 4000, from));
  return { id, frame };
}

/** Task updates for one task on a connection, once the final one has arrived. */
async function updatesUntilFinal(c: TestClient, taskId: string, timeoutMs = 5000): Promise<TaskStatusUpdatePayload[]> {
  await c.waitFor((r) => is.taskUpdate(taskId)(r) && taskUpdateOf(r)?.delta.final === true, timeoutMs);
  return c.frames.filter(is.taskUpdate(taskId)).map((r) => taskUpdateOf(r) as TaskStatusUpdatePayload);
}

describe('A2A core operations', () => {
  const ctx = useServer();
  let sessionId = '';
  let otherSessionId = '';

  beforeAll(async () => {
    sessionId = (await ctx().createSession(shell())).session_id;
    otherSessionId = (await ctx().createSession(shell())).session_id;
  });

  it('binding scenario 2: all six core operations round-trip on the socket', async () => {
    const c = await ctx().attach(sessionId);
    const hello = await c.hello();
    for (const op of CORE_OPERATIONS) expect(hello.supported_operations).toContain(op);

    const sm = await send(c, 'SendMessage', { message: userMessage('echo one') });
    expectResponse(sm.frame, 'SendMessage.Response', sm.id);
    const task1 = payloadOf<{ task: Task }>(sm.frame).task;
    expect(typeof task1.id).toBe('string');
    expect(typeof task1.context_id).toBe('string');
    expect(typeof task1.status.state).toBe('string');

    const ssm = await send(c, 'SendStreamingMessage', { message: userMessage('echo two') });
    expectResponse(ssm.frame, 'SendStreamingMessage.Accepted', ssm.id);
    const task2Id = payloadOf<{ task_id: string }>(ssm.frame).task_id;
    expect(typeof task2Id).toBe('string');

    const gt = await send(c, 'GetTask', { task_id: task1.id, history_length: 10 });
    expectResponse(gt.frame, 'GetTask.Response', gt.id);
    expect(payloadOf<{ task: Task }>(gt.frame).task.id).toBe(task1.id);

    const lt = await send(c, 'ListTasks', { page_size: 50 });
    expectResponse(lt.frame, 'ListTasks.Response', lt.id);
    const ids = payloadOf<{ tasks: Task[] }>(lt.frame).tasks.map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([task1.id, task2Id]));

    const other = await ctx().attach(sessionId);
    const long = await send(other, 'SendStreamingMessage', { message: userMessage('sleep 20') });
    const longId = payloadOf<{ task_id: string }>(long.frame).task_id;
    const sub = await send(c, 'SubscribeToTask', { task_id: longId });
    expectResponse(sub.frame, 'SubscribeToTask.Accepted', sub.id);
    expect(Number.isInteger(payloadOf<{ current_sequence: number }>(sub.frame).current_sequence)).toBe(true);

    const ct = await send(c, 'CancelTask', { task_id: longId });
    expectResponse(ct.frame, 'CancelTask.Response', ct.id);
    expect(payloadOf<{ task: Task }>(ct.frame).task.status.state).toBe('CANCELED');
  });

  it('SendMessage "echo hi" → COMPLETED with an artifact holding the output', async () => {
    const c = await ctx().attach(sessionId);
    const r = await c.request('SendMessage', { message: userMessage('echo hi') });
    expect(r.op).toBe('SendMessage.Response');
    const task = await awaitTerminal(c, payloadOf<{ task: Task }>(r).task.id);
    expect(task.status.state).toBe('COMPLETED');
    expect(artifactText(task)).toMatch(/\bhi\b/);
  });

  it('SendMessage "exit 3" → FAILED with the exit code', async () => {
    const c = await ctx().attach(sessionId);
    const r = await c.request('SendMessage', { message: userMessage('exit 3') });
    const task = await awaitTerminal(c, payloadOf<{ task: Task }>(r).task.id);
    expect(task.status.state).toBe('FAILED');
    expect(mentionsExitCode(task, 3)).toBe(true);
  });

  it('the task runs in the session working directory and environment', async () => {
    const s = (
      await ctx().createSession(
        shell({ cwd: '/tmp', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TASK_ENV_PROBE: 'probe-42' } }),
      )
    ).session_id;
    const c = await ctx().attach(s);
    const r = await c.request('SendMessage', { message: userMessage('pwd; echo "$TASK_ENV_PROBE"') });
    const task = await awaitTerminal(c, payloadOf<{ task: Task }>(r).task.id);
    expect(task.status.state).toBe('COMPLETED');
    expect(artifactText(task)).toMatch(/\/tmp/);
    expect(artifactText(task)).toMatch(/probe-42/);
  });

  it('SendStreamingMessage: Accepted, then TaskStatusUpdate WORKING … COMPLETED with the final update last', async () => {
    const c = await ctx().attach(sessionId);
    const from = c.mark();
    const id = c.send('SendStreamingMessage', { message: userMessage('sleep 0.2; echo streamed') });
    const accepted = await c.waitFor(is.reply(id), 3000, from);
    const taskId = payloadOf<{ task_id: string }>(jsonOf(accepted)).task_id;
    const updates = await updatesUntilFinal(c, taskId);
    await delay(300);
    const all = c.frames.filter(is.taskUpdate(taskId));
    expect(all).toHaveLength(updates.length); // nothing after the final update
    // Accepted precedes every update of its task.
    expect(c.frames.indexOf(accepted)).toBeLessThan(c.frames.indexOf(all[0] as Received));
    const states = updates.map((u) => u.task.status.state);
    expect(states).toContain('WORKING');
    expect(states[states.length - 1]).toBe('COMPLETED');
    updates.forEach((u, i) => {
      expect(u.delta.task_id).toBe(taskId);
      expect(u.delta.status.state).toBe(u.task.status.state);
      expect(u.delta.final).toBe(i === updates.length - 1);
    });
    // TaskStatusUpdates are log frames: strictly increasing sequence numbers.
    const seqs = all.map((r) => seqOf(r) as number);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(seqs.length);
    const final = updates[updates.length - 1] as TaskStatusUpdatePayload;
    expect(artifactText(final.task)).toMatch(/streamed/);
  });

  it('CancelTask on a running task → CANCELED; streaming subscribers get a final CANCELED update', async () => {
    const a = await ctx().attach(sessionId);
    const b = await ctx().attach(sessionId);
    const accepted = await a.request('SendStreamingMessage', { message: userMessage('sleep 30') });
    const taskId = payloadOf<{ task_id: string }>(accepted).task_id;
    await a.waitFor((r) => is.taskUpdate(taskId)(r) && taskUpdateOf(r)?.task.status.state === 'WORKING', 3000);
    const sub = await b.request('SubscribeToTask', { task_id: taskId });
    expect(sub.op).toBe('SubscribeToTask.Accepted');

    const cancel = await a.request('CancelTask', { task_id: taskId });
    expect(cancel.op).toBe('CancelTask.Response');
    expect(payloadOf<{ task: Task }>(cancel).task.status.state).toBe('CANCELED');

    for (const c of [a, b]) {
      const updates = await updatesUntilFinal(c, taskId, 3000);
      const last = updates[updates.length - 1] as TaskStatusUpdatePayload;
      expect(last.task.status.state).toBe('CANCELED');
      expect(last.delta.final).toBe(true);
    }
    await delay(400);
    for (const c of [a, b]) {
      const updates = c.frames.filter(is.taskUpdate(taskId)).map((r) => taskUpdateOf(r) as TaskStatusUpdatePayload);
      expect(updates[updates.length - 1]?.task.status.state).toBe('CANCELED');
      expect(updates.filter((u) => u.delta.final)).toHaveLength(1);
    }
    const got = await a.request('GetTask', { task_id: taskId });
    expect(payloadOf<{ task: Task }>(got).task.status.state).toBe('CANCELED');
  });

  it('binding scenario 13: trace_id from the first frame appears on every emitted task event', async () => {
    const trace = `trace-${Date.now()}`;
    const c = await ctx().attach(sessionId, { serviceParameters: { trace_id: trace } });
    // The first frame (a join) carries the parameters; later frames do not repeat them.
    await joinSession(c, { role: 'observer' });
    const accepted = await c.request('SendStreamingMessage', { message: userMessage('echo traced') });
    const taskId = payloadOf<{ task_id: string }>(accepted).task_id;
    const accepted2 = await c.request('SendStreamingMessage', { message: userMessage('exit 1') });
    const taskId2 = payloadOf<{ task_id: string }>(accepted2).task_id;
    await updatesUntilFinal(c, taskId);
    await updatesUntilFinal(c, taskId2);
    const events = c.frames.filter(is.taskUpdate());
    expect(events.length).toBeGreaterThanOrEqual(4);
    for (const r of events) expect(hasKeyValue(jsonOf(r), 'trace_id', trace)).toBe(true);
  });

  it('UpdateServiceParameters replaces the cached parameters for later task events', async () => {
    const c = await ctx().attach(sessionId, { serviceParameters: { trace_id: 'trace-old' } });
    await c.request('ping', { client_ts: new Date().toISOString() });
    const upd = await c.request('UpdateServiceParameters', { service_parameters: { trace_id: 'trace-new' } });
    expect(upd.op).toBe('UpdateServiceParameters.Response');
    const accepted = await c.request('SendStreamingMessage', { message: userMessage('echo updated') });
    const taskId = payloadOf<{ task_id: string }>(accepted).task_id;
    await updatesUntilFinal(c, taskId);
    for (const r of c.frames.filter(is.taskUpdate(taskId))) {
      expect(hasKeyValue(jsonOf(r), 'trace_id', 'trace-new')).toBe(true);
      expect(hasKeyValue(jsonOf(r), 'trace_id', 'trace-old')).toBe(false);
    }
  });

  it('interpretation 2: task updates go only to subscribed connections', async () => {
    const a = await ctx().attach(sessionId);
    const bystander = await ctx().attach(sessionId);
    await joinSession(bystander, { role: 'observer' });
    const accepted = await a.request('SendStreamingMessage', { message: userMessage('echo private') });
    const taskId = payloadOf<{ task_id: string }>(accepted).task_id;
    await updatesUntilFinal(a, taskId);
    await delay(200);
    expect(bystander.frames.filter(is.taskUpdate(taskId))).toHaveLength(0);
  });

  it('SubscribeToTask with replay_from replays the task updates missed since that sequence', async () => {
    const a = await ctx().attach(sessionId);
    const accepted = await a.request('SendStreamingMessage', { message: userMessage('echo replayed-task') });
    const taskId = payloadOf<{ task_id: string }>(accepted).task_id;
    const seen = await updatesUntilFinal(a, taskId);
    const seenSeqs = a.frames.filter(is.taskUpdate(taskId)).map((r) => seqOf(r));
    const b = await ctx().attach(sessionId);
    const sub = await b.request('SubscribeToTask', { task_id: taskId }, { replay_from: 0 });
    expect(sub.op).toBe('SubscribeToTask.Accepted');
    await b.waitFor((r) => is.taskUpdate(taskId)(r) && taskUpdateOf(r)?.delta.final === true, 3000);
    const replayed = b.frames.filter(is.taskUpdate(taskId));
    expect(replayed.map((r) => seqOf(r))).toEqual(seenSeqs);
    expect(replayed.map((r) => taskUpdateOf(r)?.task.status.state)).toEqual(seen.map((u) => u.task.status.state));
  });

  it('Unsubscribe stops further updates for that task', async () => {
    const a = await ctx().attach(sessionId);
    const b = await ctx().attach(sessionId);
    const accepted = await a.request('SendStreamingMessage', { message: userMessage('sleep 0.6; echo later') });
    const taskId = payloadOf<{ task_id: string }>(accepted).task_id;
    expect((await b.request('SubscribeToTask', { task_id: taskId })).op).toBe('SubscribeToTask.Accepted');
    const unsub = await b.request('Unsubscribe', { task_id: taskId });
    expect(unsub.op).toBe('Unsubscribe.Response');
    const after = b.mark();
    await updatesUntilFinal(a, taskId);
    await delay(200);
    expect(b.frames.slice(after).filter(is.taskUpdate(taskId))).toHaveLength(0);
  });

  it("interpretation 8: ListTasks and GetTask are scoped to the connection's session", async () => {
    const here = await ctx().attach(sessionId);
    const there = await ctx().attach(otherSessionId);
    const mine = payloadOf<{ task: Task }>(await here.request('SendMessage', { message: userMessage('echo mine') }))
      .task.id;
    const theirs = payloadOf<{ task: Task }>(
      await there.request('SendMessage', { message: userMessage('echo theirs') }),
    ).task.id;
    const listHere = payloadOf<{ tasks: Task[] }>(await here.request('ListTasks', {})).tasks.map((t) => t.id);
    const listThere = payloadOf<{ tasks: Task[] }>(await there.request('ListTasks', {})).tasks.map((t) => t.id);
    expect(listHere).toContain(mine);
    expect(listHere).not.toContain(theirs);
    expect(listThere).toContain(theirs);
    expect(listThere).not.toContain(mine);
    expectBindingError(await here.request('GetTask', { task_id: theirs }), 'TASK_NOT_FOUND');
  });

  it('ListTasks pages with page_size and next_page_token', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const c = await ctx().attach(s);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        payloadOf<{ task: Task }>(await c.request('SendMessage', { message: userMessage(`echo p${i}`) })).task.id,
      );
    const first = payloadOf<{ tasks: Task[]; next_page_token?: string | null }>(
      await c.request('ListTasks', { page_size: 2 }),
    );
    expect(first.tasks).toHaveLength(2);
    expect(typeof first.next_page_token).toBe('string');
    const second = payloadOf<{ tasks: Task[]; next_page_token?: string | null }>(
      await c.request('ListTasks', { page_size: 2, page_token: first.next_page_token }),
    );
    expect(second.tasks).toHaveLength(1);
    expect([...first.tasks, ...second.tasks].map((t) => t.id).sort()).toEqual([...ids].sort());
  });

  it('ping → pong echoes client_ts and adds server_ts (§5.6)', async () => {
    const c = await ctx().attach(sessionId);
    const ts = new Date().toISOString();
    const pong = await c.request('ping', { client_ts: ts });
    expect(pong.op).toBe('pong');
    expect(payloadOf<{ client_ts: string; server_ts: string }>(pong).client_ts).toBe(ts);
    expect(Number.isNaN(Date.parse(payloadOf<{ server_ts: string }>(pong).server_ts))).toBe(false);
  });
});
