import WebSocket from 'ws';
import { PtyClient, type OutputEvent, type WebSocketCtor } from '@pty-ws/client';
import { createSession, http, mintToken, startTestServer, type TestServer } from '@pty-ws/testkit';

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

describe('client SDK: reconnecting without stale geometry, and to a session that closed meanwhile', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  const clients: PtyClient[] = [];
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  /** `offline()` makes new sockets fail to connect (a network outage) until `online()`. */
  function flakyWebSocket(): { ctor: WebSocketCtor; sockets: WebSocket[]; offline(): void; online(): void } {
    const sockets: WebSocket[] = [];
    let down = false;
    class Flaky extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        const [url, ...rest] = args;
        super(down ? 'ws://127.0.0.1:1/unreachable' : url, ...rest);
        sockets.push(this);
      }
    }
    return {
      ctor: Flaky as unknown as WebSocketCtor,
      sockets,
      offline: () => (down = true),
      online: () => (down = false),
    };
  }
  const connect = (sessionId: string, ctor: WebSocketCtor = WebSocket as unknown as WebSocketCtor) => {
    const c = new PtyClient({
      url: server.attachUrl(sessionId),
      token: server.adminToken,
      mode: 'binary',
      WebSocket: ctor,
      autoReconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    });
    clients.push(c);
    return c;
  };

  it("a rejoin does not send the first join's size again: a resize made since stays", async () => {
    const { session_id } = await createSession(server, { argv: ['/bin/sh'], cols: 80, rows: 24 });
    const { ctor, sockets } = trackingWebSocket();
    const a = connect(session_id, ctor);
    let resets = 0;
    a.on('reset', () => resets++);
    await a.connect();
    await a.join({ role: 'controller', cols: 100, rows: 30 });
    expect(a.size).toEqual({ cols: 100, rows: 30 });
    expect(a.resize(120, 40)).toBe(true);
    await until(() => a.size?.cols === 120);

    sockets[0]!.terminate();
    await until(() => resets > 0 && a.isJoined && a.state === 'open', 8000);
    // The rejoin flush's Keyframe shows the PTY's size: still the resized one, not the first join's.
    expect(a.size).toEqual({ cols: 120, rows: 40 });
    const kf = await a.requestKeyframe();
    expect([kf.cols, kf.rows]).toEqual([120, 40]);
  });

  it('a resize the client could not send while away goes with the rejoin', async () => {
    const { session_id } = await createSession(server, { argv: ['/bin/sh'], cols: 80, rows: 24 });
    const { ctor, sockets } = trackingWebSocket();
    const a = connect(session_id, ctor);
    let resets = 0;
    a.on('reset', () => resets++);
    // The local terminal changes size while the connection is down: refused now, sent on rejoin.
    a.on('disconnect', () => expect(a.resize(130, 35)).toBe(false));
    await a.connect();
    await a.join({ role: 'controller' });
    sockets[0]!.terminate();
    await until(() => resets > 0 && a.isJoined && a.state === 'open', 8000);
    const kf = await a.requestKeyframe();
    expect([kf.cols, kf.rows]).toEqual([130, 35]);
  });

  it('a client away while the session closed learns it on reconnect: replay, then Closed', async () => {
    const { session_id } = await createSession(server, { argv: ['/bin/sh'] });
    const net = flakyWebSocket();
    const watcher = connect(session_id, net.ctor);
    const seen: OutputEvent[] = [];
    const closed: Array<{ reason: string }> = [];
    const errors: string[] = [];
    watcher.on('output', (e) => seen.push(e));
    watcher.on('closed', (e) => closed.push(e));
    watcher.on('error', (e) => errors.push(e.code));
    await watcher.connect();
    await watcher.join({ role: 'observer' });

    const typist = connect(session_id);
    const typed: OutputEvent[] = [];
    typist.on('output', (e) => typed.push(e));
    await typist.connect();
    await typist.join({ role: 'controller' });
    typist.input('echo before_$((1+1))\n');
    await until(() => text(seen).includes('before_2'));

    net.offline();
    net.sockets[0]!.terminate();
    await until(() => watcher.state === 'reconnecting');
    typist.input('echo last_words_$((5+5))\n');
    await until(() => text(typed).includes('last_words_10'));
    await until(() => net.sockets.length >= 3, 8000); // reconnect attempts are failing meanwhile
    expect((await http(server, 'DELETE', `/api/v1/sessions/${session_id}`)).status).toBe(200);
    await until(() => typist.state === 'closed', 8000);
    net.online();

    await until(() => watcher.state === 'closed', 8000);
    expect(closed).toEqual([expect.objectContaining({ reason: 'killed' })]);
    expect(text(seen)).toContain('last_words_10'); // output from the outage was replayed first
    expect(errors).not.toContain('NOT_FOUND');
  });

  it('joining a session that has already closed replays it and rejects with SESSION_CLOSED', async () => {
    const { session_id } = await createSession(server, { argv: ['/bin/sh', '-c', 'echo done_$((20+1))'] });
    for (let i = 0; i < 100; i++) {
      const r = await http(server, 'GET', `/api/v1/sessions/${session_id}`);
      if ((r.body as { state: string }).state === 'closed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const c = connect(session_id);
    const seen: OutputEvent[] = [];
    const closed: Array<{ reason: string; exitCode: number | null }> = [];
    c.on('output', (e) => seen.push(e));
    c.on('closed', (e) => closed.push(e));
    await c.connect();
    await expect(c.join({ replayFrom: 0 })).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
    expect(text(seen)).toContain('done_21');
    expect(closed).toEqual([expect.objectContaining({ reason: 'normal', exitCode: 0 })]);
    await until(() => c.state === 'closed');
  });
});
