import { ManualClock } from '@pty-ws/testkit';
import { PtyClient, type PtyWsError, type ReplayLostEvent } from '../src';
import { stateReached, walkBackoff } from './clock-helpers';
import { FakeServer } from './fake-server';
import { clientFor, record, text } from './helpers';

/**
 * The backoff pauses run on a ManualClock: a test moves it past a pause (or not at all) instead of
 * sleeping, so "nothing reconnected" is checked after the pause provably elapsed.
 */
describe('reconnect', () => {
  let server: FakeServer;
  let client: PtyClient;
  let clock: ManualClock;
  /** `reconnecting` events of the current client, as attempt numbers. */
  let reconnects: number[];
  const start = async (options: Parameters<typeof clientFor>[1] = {}): Promise<void> => {
    clock = new ManualClock();
    client = clientFor(server, { clock, ...options });
    reconnects = [];
    client.on('reconnecting', (ev) => reconnects.push(ev.attempt));
    await client.connect();
  };
  beforeEach(async () => {
    server = await FakeServer.start();
    await start();
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
    await stateReached(client, 'reconnecting');
    server.output('missed while away');
    clock.advance(9);
    expect(reconnects).toEqual([1]);
    expect(server.conns).toHaveLength(1); // the 10 ms pause has not elapsed yet
    clock.advance(1);

    const conn2 = await server.connection(1);
    const join = await conn2.waitFor('pty.join_session');
    expect(join.replay_from).toBe(before);
    expect(join.payload).toMatchObject({ role: 'controller', client_label: 'me' });
    await stateReached(client, 'open');
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
    const working = stream.next('update');
    server.taskUpdate(stream.taskId, 'WORKING');
    await working;
    const before = client.lastSequence;
    server.dropAll();
    await stateReached(client, 'reconnecting');
    server.taskUpdate(stream.taskId, 'COMPLETED');
    clock.advance(10);
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
    const output = client.next('output');
    server.output('x');
    await output;
    expect(client.lastSequence).toBe(server.seq);
    const lost = client.next('replayLost');
    server.dropAll();
    await stateReached(client, 'reconnecting');
    server.evictedThrough = server.seq + 10;
    clock.advance(10);
    const ev: ReplayLostEvent = await lost;
    expect(ev.error.code).toBe('REPLAY_OUT_OF_RANGE');
    expect(ev.replayFrom).toBeGreaterThan(0);
    await stateReached(client, 'open');
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
    clock.advance(60_000);
    expect(reconnects).toEqual([]);
    expect(clock.pendingCount).toBe(0);
    expect(server.conns).toHaveLength(1);
  });

  it('does not reconnect after close code 4401 and surfaces UNAUTHENTICATED', async () => {
    await client.join();
    const err = client.next('error');
    server.closeAll(4401, 'token expired');
    await expect(err).resolves.toMatchObject({ code: 'UNAUTHENTICATED', closeCode: 4401 });
    await stateReached(client, 'closed');
    clock.advance(60_000);
    expect(reconnects).toEqual([]);
    expect(clock.pendingCount).toBe(0);
    expect(server.conns).toHaveLength(1);
  });

  it('does not reconnect on 4404 either', async () => {
    const err = client.next('error');
    server.closeAll(4404);
    await expect(err).resolves.toMatchObject({ code: 'NOT_FOUND' });
    expect(client.state).toBe('closed');
    clock.advance(60_000);
    expect(reconnects).toEqual([]);
    expect(server.conns).toHaveLength(1);
  });

  it('stops a reconnect loop that hits a refused upgrade (HTTP 401)', async () => {
    await client.join();
    server.dropAll();
    (server.options as { token?: string }).token = 'now-required';
    await stateReached(client, 'reconnecting');
    const error = client.next('error');
    clock.advance(10);
    const err: PtyWsError = await error;
    expect(err).toMatchObject({ code: 'UNAUTHENTICATED', httpStatus: 401 });
    expect(client.state).toBe('closed');
    expect(reconnects).toEqual([1]);
  });

  it('gives up after maxAttempts when the server is gone', async () => {
    client.close();
    await start({ autoReconnect: { initialDelayMs: 100, factor: 3, jitter: 0, maxAttempts: 3 } });
    const delays: number[] = [];
    client.on('reconnecting', (e) => delays.push(e.delayMs));
    const attempts = walkBackoff(client, clock);
    const err = client.next('error');
    await server.stop();
    await expect(err).resolves.toMatchObject({ code: 'RECONNECT_FAILED' });
    expect(attempts).toEqual([1, 2, 3]);
    expect(delays).toEqual([100, 300, 900]);
    expect(clock.monotonic()).toBe(1300); // the pauses ran on the manual clock, and only they
    expect(client.state).toBe('closed');
    server = await FakeServer.start(); // for afterEach
  });

  it('does not reconnect when autoReconnect is false', async () => {
    client.close();
    await start({ autoReconnect: false });
    const err = client.next('error');
    server.dropAll();
    await expect(err).resolves.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(client.state).toBe('closed');
  });

  it('leave() during a reconnect pause stops the loop', async () => {
    client.close();
    await start({ autoReconnect: { initialDelayMs: 300, jitter: 0 } });
    const connections = server.conns.length;
    server.dropAll();
    await stateReached(client, 'reconnecting');
    expect(clock.pendingCount).toBe(1); // the pause
    await client.leave();
    expect(client.state).toBe('closed');
    expect(clock.pendingCount).toBe(0);
    clock.advance(400);
    expect(reconnects).toEqual([1]);
    expect(server.conns).toHaveLength(connections);
  });
});
