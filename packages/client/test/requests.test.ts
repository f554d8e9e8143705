import { rfc3339, type Task } from '@pty-ws/protocol';
import { PtyClient, PtyWsError, textMessage, type TaskUpdate } from '../src';
import { ManualClock } from '@pty-ws/testkit';
import { FakeServer } from './fake-server';
import { clientFor } from './helpers';

describe('requests', () => {
  let server: FakeServer;
  let client: PtyClient;
  let clock: ManualClock;
  beforeEach(async () => {
    server = await FakeServer.start();
    clock = new ManualClock();
    client = clientFor(server, { clock });
    await client.connect();
  });
  afterEach(async () => {
    client.close();
    await server.stop();
    expect(server.violations).toEqual([]);
  });

  it('correlates concurrent responses by id, whatever their order', async () => {
    const tasks: Task[] = ['a', 'b', 'c'].map((id) => ({
      id,
      context_id: 'ctx',
      status: { state: 'WORKING', timestamp: rfc3339() },
    }));
    for (const t of tasks) server.tasks.set(t.id, t);
    const held: Array<() => void> = [];
    server.override('GetTask', (conn, f) => {
      held.push(() => conn.reply('GetTask.Response', { task: server.tasks.get(f.payload.task_id) }, f.id));
      if (held.length === 3) held.reverse().forEach((answer) => answer());
    });
    const got = await Promise.all(['a', 'b', 'c'].map((id) => client.getTask(id)));
    expect(got.map((t) => t.id)).toEqual(['a', 'b', 'c']);
  });

  it('rejects with a typed PtyWsError carrying a2a_error for an Error frame with the request id', async () => {
    const err = await client.getTask('nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PtyWsError);
    expect(err).toMatchObject({
      code: 'TASK_NOT_FOUND',
      retryable: false,
      op: 'GetTask',
      a2aError: { type: 'TaskNotFound', code: -32001 },
    });
    const conn = await server.connection(0);
    expect((err as PtyWsError).requestId).toBe(conn.received.at(-1)?.id);
  });

  it('times out a request nobody answers, and ignores the late answer', async () => {
    let late: (() => void) | undefined;
    server.override(
      'ping',
      (conn, f) => (late = () => conn.reply('pong', { client_ts: '', server_ts: rfc3339() }, f.id)),
    );
    const errors: PtyWsError[] = [];
    client.on('error', (e) => errors.push(e));
    const pinged = (await server.connection(0)).waitFor('ping');
    const ping = client.ping({ timeoutMs: 100 });
    await pinged;
    clock.advance(100);
    await expect(ping).rejects.toMatchObject({ code: 'TIMEOUT', retryable: true, op: 'ping' });
    late!();
    await client.listTasks(); // answered after the late pong: it has arrived
    expect(errors).toEqual([]);
    expect(client.state).toBe('open');
  });

  it('emits Error frames that answer no pending request as error events', async () => {
    const conn = await server.connection(0);
    const next = client.next('error');
    conn.error('RATE_LIMITED', 'slow down');
    await expect(next).resolves.toMatchObject({
      code: 'RATE_LIMITED',
      retryable: true,
      a2aError: { type: 'RateLimited' },
    });
  });

  it('streams task updates through the async iterator until the final one', async () => {
    const stream = await client.sendStreamingMessage('run the tests');
    const states: string[] = [];
    for await (const update of stream) states.push(update.task.status.state);
    expect(states).toEqual(['WORKING', 'COMPLETED']);
    expect(stream.ended).toBe(true);
    await expect(stream.done()).resolves.toMatchObject({ final: true, taskId: stream.taskId });
  });

  it('delivers updates to event listeners and the global taskUpdate event', async () => {
    server.autoCompleteStreams = false;
    const stream = await client.sendStreamingMessage(textMessage('hi'));
    const seen: TaskUpdate[] = [];
    const global: string[] = [];
    stream.on('update', (u) => seen.push(u));
    client.on('taskUpdate', (u) => global.push(u.task.status.state));
    server.taskUpdate(stream.taskId, 'WORKING');
    server.taskUpdate(stream.taskId, 'INPUT_REQUIRED');
    await stream.done();
    expect(seen.map((u) => [u.task.status.state, u.final])).toEqual([
      ['WORKING', false],
      ['INPUT_REQUIRED', true],
    ]);
    expect(global).toEqual(['WORKING', 'INPUT_REQUIRED']);
    expect(seen[1]!.sequence).toBeGreaterThan(seen[0]!.sequence);
  });

  it('subscribes to an existing task and unsubscribes', async () => {
    server.autoCompleteStreams = false;
    const started = await client.sendStreamingMessage('x');
    await client.unsubscribe(started.taskId);
    expect(started.ended).toBe(true);
    const stream = await client.subscribeToTask(started.taskId);
    expect(stream).not.toBe(started);
    expect(stream.currentSequence).toBe(server.seq);
    server.taskUpdate(stream.taskId, 'COMPLETED');
    await expect(stream.done()).resolves.toMatchObject({ final: true });
    await expect(client.subscribeToTask('missing')).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
  });

  it('covers the remaining core ops', async () => {
    const task = await client.sendMessage('hello');
    expect(task.status.state).toBe('COMPLETED');
    const list = await client.listTasks({ pageSize: 10 });
    expect(list.tasks.map((t) => t.id)).toContain(task.id);
    expect(list.nextPageToken).toBeUndefined();
    await expect(client.cancelTask(task.id)).rejects.toMatchObject({ code: 'TASK_NOT_CANCELABLE' });
    const pong = await client.ping();
    expect(pong.rttMs).toBeGreaterThanOrEqual(0);
    expect(pong.serverTs).toMatch(/^\d{4}-/);
    await client.updateServiceParameters({ trace_id: 't2' });
    await expect(client.request('SetTaskPushNotificationConfig', {})).rejects.toMatchObject({
      code: 'UNSUPPORTED_OPERATION',
    });
    const raw = await client.request('GetTask', { task_id: task.id });
    expect(raw.op).toBe('GetTask.Response');
  });

  it('rejects ops on a client that is not connected', async () => {
    const idle = clientFor(server);
    await expect(idle.ping()).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    client.close();
    await expect(client.getTask('x')).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });
});
