import WebSocket from 'ws';
import { ManualClock } from '@pty-ws/testkit';
import { EXTENSION_URI, SUBPROTOCOL_BINARY, SUBPROTOCOL_JSON } from '@pty-ws/protocol';
import { PtyClient, PtyWsError, subprotocols } from '../src';
import { FakeServer, SESSION_ID } from './fake-server';
import { clientFor } from './helpers';

describe('connecting', () => {
  let server: FakeServer;
  let client: PtyClient | undefined;
  afterEach(async () => {
    client?.close();
    client = undefined;
    await server.stop();
  });

  it('offers pty-ws.v1 plus bearer.<base64url(token)> and accepts the echoed pty-ws.v1', async () => {
    // Chosen so standard base64 would contain '+', '/' and '=' — none is legal in a subprotocol token.
    const token = 'ab?>>c~~\u00ff';
    server = await FakeServer.start({ token });
    client = clientFor(server, { token });
    const hello = await client.connect();
    const conn = await server.connection(0);
    const bearer = conn.offered[1]!;
    expect(conn.offered[0]).toBe(SUBPROTOCOL_JSON);
    expect(bearer).toBe(`bearer.${Buffer.from(token, 'utf8').toString('base64url')}`);
    expect(bearer).not.toMatch(/[+/=]/);
    expect(conn.bearer).toBe(token);
    expect(conn.protocol).toBe(SUBPROTOCOL_JSON);
    expect(hello.payload_mode.binary).toBe(false);
    expect(client.state).toBe('open');
  });

  it('offers pty-ws.v1.binary in binary mode', async () => {
    server = await FakeServer.start();
    client = clientFor(server, { mode: 'binary' });
    const hello = await client.connect();
    const conn = await server.connection(0);
    expect(conn.offered).toEqual([SUBPROTOCOL_BINARY]);
    expect(hello.payload_mode.binary).toBe(true);
  });

  it('sends the token as Authorization: Bearer with the header transport', async () => {
    server = await FakeServer.start({ token: 's3cret' });
    client = clientFor(server, { token: 's3cret', tokenTransport: 'header' });
    await client.connect();
    const conn = await server.connection(0);
    expect(conn.authorization).toBe('Bearer s3cret');
    expect(conn.offered).toEqual([SUBPROTOCOL_JSON]);
    expect(subprotocols('json', 's3cret', 'header')).toEqual([SUBPROTOCOL_JSON]);
  });

  it('builds the attach URL from baseUrl + ids', async () => {
    server = await FakeServer.start();
    client = new PtyClient({
      baseUrl: `http://127.0.0.1:${server.port}/`,
      instanceId: 'inst-1',
      sessionId: SESSION_ID,
      WebSocket,
    });
    expect(client.url).toBe(server.url());
    await client.connect();
  });

  it('surfaces HTTP 401 at upgrade as UNAUTHENTICATED and does not retry', async () => {
    server = await FakeServer.start({ token: 'right' });
    const clock = new ManualClock();
    client = clientFor(server, { token: 'wrong', clock });
    const err = await client.connect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PtyWsError);
    expect(err).toMatchObject({ code: 'UNAUTHENTICATED', httpStatus: 401, retryable: false });
    expect(client.state).toBe('closed');
    // A retry would wait on the clock first: nothing is scheduled, however long we wait.
    expect(clock.pendingCount).toBe(0);
    expect(server.upgrades.map((u) => u.status)).toEqual([401]);
  });

  it('opens the socket once more when the server drops it right after the upgrade', async () => {
    server = await FakeServer.start({ dropAfterUpgrade: 1 });
    client = clientFor(server, { autoReconnect: false });
    const hello = await client.connect();
    expect(hello.session.session_id).toBe(SESSION_ID);
    expect(server.conns).toHaveLength(2);
    expect(client.state).toBe('open');
  });

  it('reports a second drop right after the upgrade: one more try, not a loop', async () => {
    server = await FakeServer.start({ dropAfterUpgrade: 2 });
    const clock = new ManualClock();
    client = clientFor(server, { autoReconnect: false, clock });
    const err = await client.connect().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CONNECT_FAILED', closeCode: 1006, retryable: true });
    expect(clock.pendingCount).toBe(0); // no third try waits anywhere
    expect(server.conns).toHaveLength(2);
    expect(client.state).toBe('closed');
  });

  it('surfaces HTTP 404 for an unknown session as NOT_FOUND', async () => {
    server = await FakeServer.start();
    client = clientFor(server, { url: server.url('inst-1', '0190a1b2-0000-7000-8000-000000000000') });
    await expect(client.connect()).rejects.toMatchObject({ code: 'NOT_FOUND', httpStatus: 404 });
  });

  it('sends nothing before binding_hello; ops issued early wait for it', async () => {
    server = await FakeServer.start({ helloDelayMs: 150 });
    client = clientFor(server);
    const connected = client.connect();
    const early = client.ping();
    expect(client.hello).toBeUndefined();
    expect(client.state).toBe('connecting');
    const hello = await connected;
    await early;
    const conn = await server.connection(0);
    expect(hello.binding_uri).toBe('https://agentic-sandbox.aiwg.io/bindings/pty-ws/v1');
    expect(client.hello).toBe(hello);
    expect(conn.firstFrameAt).toBeGreaterThanOrEqual(conn.helloSentAt);
    expect(conn.received.map((f) => f.op)).toEqual(['ping']);
  });

  it('rejects a server whose first frame is not binding_hello', async () => {
    server = await FakeServer.start({ firstOp: 'pong' });
    client = clientFor(server);
    await expect(client.connect()).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
    expect(client.state).toBe('closed');
  });

  it('rejects a server that echoes the bearer token instead of the PTY subprotocol', async () => {
    // Binding §7.1: the server must strip the bearer half; echoing it means the framing is unknown.
    server = await FakeServer.start({ echoProtocol: (offered) => offered.find((p) => p.startsWith('bearer.'))! });
    client = clientFor(server, { token: 't' });
    await expect(client.connect()).rejects.toMatchObject({ code: 'PROTOCOL_ERROR', retryable: false });
    expect(client.state).toBe('closed');
  });

  it('rejects a server that selects a subprotocol that was never offered', async () => {
    server = await FakeServer.start({ echoProtocol: () => SUBPROTOCOL_BINARY });
    client = clientFor(server, { mode: 'json' });
    await expect(client.connect()).rejects.toMatchObject({ code: 'PROTOCOL_ERROR', retryable: false });
  });

  it('carries extensions and service_parameters on the first frame only', async () => {
    server = await FakeServer.start();
    client = clientFor(server, { serviceParameters: { trace_id: 'trace-1' } });
    await client.connect();
    await client.ping();
    await client.ping();
    const conn = await server.connection(0);
    const [first, second] = conn.received;
    expect(first).toMatchObject({ extensions: [EXTENSION_URI], service_parameters: { trace_id: 'trace-1' } });
    expect(second).not.toHaveProperty('extensions');
    expect(second).not.toHaveProperty('service_parameters');
    expect(server.violations).toEqual([]);
  });
});
