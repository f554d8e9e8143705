import WebSocket from 'ws';
import { MemoryFrameLog } from '@pty-ws/adapters-memory';
import type { LogEntry } from '@pty-ws/ports';
import { silentLogger } from '../src/logger';
import { uWS, type TemplatedApp, type us_listen_socket, type WebSocket as UwsSocket } from '../src/uws';
import { advance, newConn, type Conn } from '../src/ws/connection';
import { SessionHub } from '../src/ws/session-hub';

/**
 * A live connection that goes behind (role change, join, task subscription) gets per-connection
 * frames next, then a catch-up. uWS batches small publishes per socket until it drains its topic
 * tree later in the turn, and drops that batch for a socket that unsubscribes first; the hub
 * flushes the batch on the way out. Real uWS, a real socket: the client must see every sequence
 * once, in order, and the marker sent after going behind must carry the highest one it saw.
 */
const SESSION = 's1';
const MAX_BACKPRESSURE = 256 * 1024;

let app: TemplatedApp;
let listenSocket: us_listen_socket;
let port: number;
/** The server side of the next socket to open. */
let opened: ((ws: UwsSocket<Conn>) => void) | undefined;

beforeAll(async () => {
  app = uWS.App().ws<Conn>('/*', {
    maxBackpressure: MAX_BACKPRESSURE,
    open: (ws) => opened?.(ws),
  });
  await new Promise<void>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (token) => {
      if (!token) return reject(new Error('listen failed'));
      listenSocket = token;
      port = uWS.us_socket_local_port(token);
      resolve();
    }),
  );
});

afterAll(() => uWS.us_listen_socket_close(listenSocket));

interface Received {
  seqs: number[];
  /** Sequences the markers carried, in arrival order, each with the frames seen before it. */
  markers: Array<{ carried: number; seenBefore: number }>;
  pings: number;
}

/** A joined JSON connection with a real socket, and what its client receives. */
async function connect(): Promise<{ conn: Conn; client: WebSocket; received: Received }> {
  const conn = newConn({
    clientId: `c${Math.random()}`,
    instanceId: 'i',
    sessionId: SESSION,
    principal: { id: 'p', scopes: new Set(['pty:observe']) },
    binary: false,
    remoteAddress: '127.0.0.1',
  });
  advance(conn, 'ready');
  advance(conn, 'joined');
  const server = new Promise<UwsSocket<Conn>>((resolve) => (opened = resolve));
  const client = new WebSocket(`ws://127.0.0.1:${port}/`);
  const received: Received = { seqs: [], markers: [], pings: 0 };
  client.on('ping', () => received.pings++);
  client.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { sequence?: number; marker?: number };
    if (frame.marker !== undefined) {
      received.markers.push({ carried: frame.marker, seenBefore: Math.max(0, ...received.seqs) });
    } else if (frame.sequence !== undefined) received.seqs.push(frame.sequence);
  });
  client.on('error', () => undefined); // a failure shows in what was received
  await new Promise((resolve) => client.once('open', resolve));
  conn.ws = await server;
  return { conn, client, received };
}

function entry(seq: number): LogEntry {
  return { type: 'event', seq, id: `id-${seq}`, ts: Date.now(), op: 'pty.session_frame', payload: { kind: 'Test' } };
}

/** What join-flow and setRole do: go behind, send a frame of this connection's own, catch up. */
async function leaveAndCatchUp(hub: SessionHub, conn: Conn): Promise<void> {
  hub.goOffline(conn);
  conn.ws?.send(JSON.stringify({ marker: conn.lastSeq }), false);
  await hub.catchUp(conn);
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

function hubOn(log: MemoryFrameLog, lagged: Conn[] = []): SessionHub {
  return new SessionHub(SESSION, 0, {
    app,
    log,
    logger: silentLogger,
    slowConsumerBytes: 64 * 1024,
    hardBacklogBytes: MAX_BACKPRESSURE / 2,
    onLagged: (conn) => lagged.push(conn),
  });
}

describe('SessionHub: a live connection going behind', () => {
  let log: MemoryFrameLog;
  let hub: SessionHub;
  let client: WebSocket | undefined;

  beforeEach(() => {
    log = new MemoryFrameLog();
    hub = hubOn(log);
  });

  afterEach(() => {
    hub.dispose();
    client?.terminate();
  });

  it('gets what was published to it in the same turn, once, before its own frames', async () => {
    const c = await connect();
    client = c.client;
    hub.add(c.conn);
    await hub.catchUp(c.conn);
    expect(c.conn.feed).toBe('live');
    await log.append(SESSION, entry(1));
    await log.append(SESSION, entry(2));
    await log.append(SESSION, entry(3));
    await leaveAndCatchUp(hub, c.conn);
    await log.append(SESSION, entry(4));
    await until(() => c.received.seqs.length >= 4, 'four frames');
    await new Promise((r) => setTimeout(r, 50));
    expect(c.received.seqs).toEqual([1, 2, 3, 4]);
    expect(c.received.markers).toEqual([{ carried: 3, seenBefore: 3 }]);
    expect(c.received.pings).toBe(1);
  });

  it('keeps its sequence when the topic batch was flushed before it went behind', async () => {
    // The role change is answered in an immediate queued before the publish: by the time it
    // runs, uWS may or may not have flushed frame 2; either way the marker counts what arrived.
    const c = await connect();
    client = c.client;
    hub.add(c.conn);
    await hub.catchUp(c.conn);
    await log.append(SESSION, entry(1));
    await until(() => c.received.seqs.length === 1, 'frame 1');
    // A fresh turn: the immediate below is queued before anything else the publish queues.
    const done = new Promise<void>((resolve, reject) =>
      setImmediate(() => leaveAndCatchUp(hub, c.conn).then(resolve, reject)),
    );
    await log.append(SESSION, entry(2));
    await done;
    await log.append(SESSION, entry(3));
    await until(() => c.received.seqs.length >= 3, 'three frames');
    await new Promise((r) => setTimeout(r, 50));
    expect(c.received.seqs).toEqual([1, 2, 3]);
    expect(c.received.markers).toEqual([{ carried: 2, seenBefore: 2 }]);
  });

  it('is skipped forward when its socket is past uWS backpressure, where the flush would be dropped', async () => {
    const lagged: Conn[] = [];
    hub.dispose();
    hub = hubOn(log, lagged);
    const c = await connect();
    client = c.client;
    hub.add(c.conn);
    await hub.catchUp(c.conn);
    // A reader that stops reading, and a backlog past maxBackpressure.
    (c.client as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 16 && (c.conn.ws?.getBufferedAmount() ?? 0) <= MAX_BACKPRESSURE; i++) {
      c.conn.ws?.send(big, false);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(c.conn.ws?.getBufferedAmount()).toBeGreaterThan(MAX_BACKPRESSURE);
    hub.goOffline(c.conn);
    expect(c.conn.feed).toBe('lagged');
    expect(lagged).toEqual([c.conn]);
  });
});
