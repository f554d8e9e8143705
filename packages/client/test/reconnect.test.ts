import { PtyClient, type PtyWsError, type ReplayLostEvent } from '../src';
import { FakeServer } from './fake-server';
import { clientFor, delay, record, text, until } from './helpers';

describe('reconnect', () => {
  let server: FakeServer;
  let client: PtyClient;
  beforeEach(async () => {
    server = await FakeServer.start();
    client = clientFor(server);
    await client.connect();
  });
  afterEach(async () => {
    client.close();
    await server.stop();
    expect(server.violations).toEqual([]);
  });

  it('re-joins with replay_from = lastSequence after a drop, emitting reset first', async () => {
    const role = await client.join({ role: 'controller', label: 'me' });
    const echoed = client.next('output');
    client.input('one');
    await echoed;
    const before = client.lastSequence;
    expect(before).toBe(server.seq);

    const events = record(client, ['reset', 'output', 'keyframe', 'state', 'disconnect'], (t, ev) => {
      if (t === 'output') return text((ev as { data: Uint8Array }).data);
      if (t === 'state') return (ev as { state: string }).state;
      if (t === 'disconnect') return String((ev as { willReconnect: boolean }).willReconnect);
      return undefined;
    });
    server.dropAll();
    await until(() => client.state === 'reconnecting');
    server.output('missed while away');

    const conn2 = await server.connection(1);
    const join = await conn2.waitFor('pty.join_session');
    expect(join.replay_from).toBe(before);
    expect(join.payload).toMatchObject({ role: 'controller', client_label: 'me' });
    await until(() => client.state === 'open');
    expect(events).toEqual([
      'disconnect:true',
      'state:reconnecting',
      'reset',
      'output:missed while away',
      'keyframe',
      'state:open',
    ]);
    expect(client.isJoined).toBe(true);
    expect(client.lastSequence).toBe(server.seq);
    expect(client.role).toBe('controller');
    expect(client.clientId).not.toBe(role.clientId); // a new connection gets a new client_id

    // And the new connection is fully usable.
    const live = client.next('output');
    expect(client.input('two')).toBe(true);
    expect(text((await live).data)).toBe('two');
    // The first frame of the new connection carried the extension activation again.
    expect(conn2.received[0]).toMatchObject({ op: 'pty.join_session', extensions: [expect.any(String)] });
  });

  it('resubscribes task streams with replay_from and delivers what was missed', async () => {
    server.autoCompleteStreams = false;
    const stream = await client.sendStreamingMessage('long job');
    server.taskUpdate(stream.taskId, 'WORKING');
    await until(() => stream.lastUpdate !== undefined);
    const before = client.lastSequence;
    server.dropAll();
    await until(() => client.state === 'reconnecting');
    server.taskUpdate(stream.taskId, 'COMPLETED');
    const sub = await (await server.connection(1)).waitFor('SubscribeToTask');
    expect(sub.replay_from).toBe(before);
    expect(sub.payload).toEqual({ task_id: stream.taskId });
    await expect(stream.done()).resolves.toMatchObject({ task: { status: { state: 'COMPLETED' } } });
    const states: string[] = [];
    for await (const u of stream) states.push(u.task.status.state);
    expect(states).toEqual(['WORKING', 'COMPLETED']);
  });

  it('emits replayLost on REPLAY_OUT_OF_RANGE and still completes the re-join', async () => {
    await client.join();
    server.output('x');
    await until(() => client.lastSequence === server.seq);
    const lost = client.next('replayLost');
    server.dropAll();
    await until(() => client.state === 'reconnecting');
    server.evictedThrough = server.seq + 10;
    const ev: ReplayLostEvent = await lost;
    expect(ev.error.code).toBe('REPLAY_OUT_OF_RANGE');
    expect(ev.replayFrom).toBeGreaterThan(0);
    await until(() => client.state === 'open');
    expect(client.isJoined).toBe(true);
  });

  it('rejects in-flight requests with CONNECTION_CLOSED on a drop', async () => {
    server.override('GetTask', () => undefined);
    const pending = client.getTask('t');
    await (await server.connection(0)).waitFor('GetTask');
    server.dropAll();
    await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED', retryable: true });
  });

  it('does not reconnect after leave()', async () => {
    await client.join();
    await client.leave();
    expect(client.state).toBe('closed');
    const conn = await server.connection(0);
    expect(conn.received.map((f) => f.op)).toContain('pty.leave_session');
    await delay(100);
    expect(server.conns).toHaveLength(1);
  });

  it('does not reconnect after close code 4401 and surfaces UNAUTHENTICATED', async () => {
    await client.join();
    const err = client.next('error');
    server.closeAll(4401, 'token expired');
    await expect(err).resolves.toMatchObject({ code: 'UNAUTHENTICATED', closeCode: 4401 });
    await until(() => client.state === 'closed');
    await delay(100);
    expect(server.conns).toHaveLength(1);
  });

  it('does not reconnect on 4404 either', async () => {
    const err = client.next('error');
    server.closeAll(4404);
    await expect(err).resolves.toMatchObject({ code: 'NOT_FOUND' });
    await delay(100);
    expect(server.conns).toHaveLength(1);
  });

  it('stops a reconnect loop that hits a refused upgrade (HTTP 401)', async () => {
    await client.join();
    server.dropAll();
    (server.options as { token?: string }).token = 'now-required';
    const err: PtyWsError = await client.next('error');
    expect(err).toMatchObject({ code: 'UNAUTHENTICATED', httpStatus: 401 });
    expect(client.state).toBe('closed');
  });

  it('gives up after maxAttempts when the server is gone', async () => {
    client.close();
    client = clientFor(server, { autoReconnect: { initialDelayMs: 5, maxDelayMs: 5, jitter: 0, maxAttempts: 3 } });
    await client.connect();
    const attempts: number[] = [];
    client.on('reconnecting', (e) => attempts.push(e.attempt));
    const err = client.next('error');
    await server.stop();
    await expect(err).resolves.toMatchObject({ code: 'RECONNECT_FAILED' });
    expect(attempts).toEqual([1, 2, 3]);
    expect(client.state).toBe('closed');
    server = await FakeServer.start(); // for afterEach
  });

  it('does not reconnect when autoReconnect is false', async () => {
    client.close();
    client = clientFor(server, { autoReconnect: false });
    await client.connect();
    const err = client.next('error');
    server.dropAll();
    await expect(err).resolves.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(client.state).toBe('closed');
  });

  it('leave() during a reconnect pause stops the loop', async () => {
    client.close();
    client = clientFor(server, { autoReconnect: { initialDelayMs: 300, jitter: 0 } });
    await client.connect();
    const connections = server.conns.length;
    server.dropAll();
    await until(() => client.state === 'reconnecting');
    await client.leave();
    await delay(400);
    expect(client.state).toBe('closed');
    expect(server.conns).toHaveLength(connections);
  });
});
