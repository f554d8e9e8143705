import WebSocket from 'ws';
import { PtyClient, type OutputEvent, type WebSocketCtor } from '@pty-ws/client';
import { createSession, mintToken, startTestServer, type TestServer } from '@pty-ws/testkit';

/** A ws constructor that remembers its sockets, so a test can cut one like a network failure would. */
function trackingWebSocket(): { ctor: WebSocketCtor; sockets: WebSocket[] } {
  const sockets: WebSocket[] = [];
  class Tracked extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      sockets.push(this);
    }
  }
  return { ctor: Tracked as unknown as WebSocketCtor, sockets };
}

function until(pred: () => boolean, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const tick = () => {
      if (pred()) return resolve();
      if (Date.now() > deadline) return reject(new Error('condition not met in time'));
      setTimeout(tick, 20);
    };
    tick();
  });
}

const text = (events: OutputEvent[]) => events.map((e) => Buffer.from(e.data).toString('utf8')).join('');

describe('client SDK against the real server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  const clients: PtyClient[] = [];
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  const connect = (sessionId: string, opts: { token?: string; mode?: 'json' | 'binary'; ctor?: WebSocketCtor }) => {
    const c = new PtyClient({
      url: server.attachUrl(sessionId),
      token: opts.token ?? server.adminToken,
      mode: opts.mode ?? 'binary',
      WebSocket: opts.ctor ?? (WebSocket as unknown as WebSocketCtor),
      autoReconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    });
    clients.push(c);
    return c;
  };

  it.each(['binary', 'json'] as const)('joins, types and reads output over the %s subprotocol', async (mode) => {
    const { session_id } = await createSession(server, { argv: ['/bin/sh'] });
    const c = connect(session_id, { mode });
    const out: OutputEvent[] = [];
    c.on('output', (e) => out.push(e));
    const hello = await c.connect();
    expect(hello.payload_mode.binary).toBe(mode === 'binary');
    const role = await c.join({ cols: 80, rows: 24 });
    expect(role.role).toBe('controller');
    c.input('echo sdk_$((6*7))\n');
    await until(() => text(out).includes('sdk_42'));
    expect(c.lastSequence).toBeGreaterThan(0);
  });

  it('reconnects after a dropped socket and replays what it missed, without duplicates', async () => {
    const { session_id } = await createSession(server, { argv: ['/bin/sh'] });
    const { ctor, sockets } = trackingWebSocket();
    const watcher = connect(session_id, { ctor });
    const seen: OutputEvent[] = [];
    let resets = 0;
    watcher.on('output', (e) => seen.push(e));
    watcher.on('reset', () => resets++);
    await watcher.connect();
    await watcher.join({ role: 'observer' });

    const typist = connect(session_id, { mode: 'json' });
    await typist.connect();
    await typist.join({ role: 'controller' });
    typist.input('echo before_$((1+1))\n');
    await until(() => text(seen).includes('before_2'));

    sockets[0]!.terminate(); // the network goes away; the SDK is not told
    typist.input('echo during_$((2+2))\n');
    await until(() => resets > 0 && text(seen).includes('during_4'), 8000);
    typist.input('echo after_$((3+3))\n');
    await until(() => text(seen).includes('after_6'));

    expect(sockets.length).toBe(2);
    const seqs = seen.map((e) => e.sequence);
    expect(new Set(seqs).size).toBe(seqs.length); // nothing delivered twice
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs); // and in order
  });

  it('runs A2A tasks: SendMessage and a streaming message with its updates', async () => {
    const { session_id } = await createSession(server, { argv: ['/bin/sh'], cwd: '/tmp' });
    const c = connect(session_id, { mode: 'json' });
    await c.connect();
    const task = await c.sendMessage('pwd; echo ok');
    expect(task.status.state).toBe('COMPLETED');
    expect(JSON.stringify(task.artifacts)).toContain('/tmp\\nok');

    const stream = await c.sendStreamingMessage('exit 3');
    const states: string[] = [];
    for await (const u of stream) states.push(u.task.status.state);
    expect(states).toEqual(['WORKING', 'FAILED']);
  });

  it('an observe-only token cannot drive the session', async () => {
    const { session_id } = await createSession(server, { argv: ['/bin/sh'] });
    const { token } = await mintToken(server, { scopes: ['pty:observe'] });
    const c = connect(session_id, { token });
    await c.connect();
    const role = await c.join();
    expect(role.role).toBe('observer');
    await expect(c.requestRole('controller')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });
});
