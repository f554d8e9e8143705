import type WebSocket from 'ws';
import { MemoryFrameLog } from '@pty-ws/adapters-memory';
import type { LogEntry } from '@pty-ws/ports';
import { silentLogger } from '../src/logger';
import type { Conn } from '../src/ws/connection';
import { sendDirect } from '../src/ws/frame-writer';
import { SessionHub } from '../src/ws/session-hub';
import { startSocketServer, until, type SocketServer } from './support/real-socket';

/**
 * The hub's live feed: every frame reaches a live socket through its own send, in program order.
 * A live connection that goes behind (role change, join, task subscription) gets per-connection
 * frames next, then a catch-up: the client must see every sequence once, in order, and the marker
 * sent after going behind must carry the highest one it saw. (When the hub published to uWS
 * topics, uWS batched small publishes per socket and dropped the batch of a socket that
 * unsubscribed first; the hub had to flush it with a Ping.) Real uWS, a real socket.
 */
const SESSION = 's1';
const MAX_BACKPRESSURE = 256 * 1024;

let server: SocketServer;
beforeAll(async () => (server = await startSocketServer(MAX_BACKPRESSURE)));
afterAll(() => server.close());
const connect = () => server.connect(SESSION);

function entry(seq: number): LogEntry {
  return { type: 'event', seq, id: `id-${seq}`, ts: Date.now(), op: 'pty.session_frame', payload: { kind: 'Test' } };
}

/** What join-flow and setRole do: go behind, send a frame of this connection's own, catch up. */
async function leaveAndCatchUp(hub: SessionHub, conn: Conn): Promise<void> {
  hub.goOffline(conn);
  conn.ws?.send(JSON.stringify({ marker: conn.lastSeq }), false);
  await hub.catchUp(conn);
}

function hubOn(log: MemoryFrameLog, lagged: Conn[] = []): SessionHub {
  return new SessionHub(SESSION, 0, {
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

  /** A connection made live, which has received frame 1. */
  async function liveAfterFrameOne(): Promise<Awaited<ReturnType<typeof connect>>> {
    const c = await connect();
    client = c.client;
    hub.add(c.conn);
    await hub.catchUp(c.conn);
    await log.append(SESSION, entry(1));
    await until(() => c.received.seqs.length === 1, 'frame 1');
    return c;
  }

  it('gets what was sent to it in the same turn, once, before its own frames', async () => {
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
    await c.barrier(); // everything written so far has arrived: nothing more, nothing twice
    expect(c.received.seqs).toEqual([1, 2, 3, 4]);
    expect(c.received.markers).toEqual([{ carried: 3, seenBefore: 3 }]);
    expect(c.received.pings).toBe(0); // nothing is batched behind the socket's back: no flush
  });

  it('leaves live sockets on no uWS topic: each frame reaches a socket through its own send', async () => {
    // The hub keeps each connection's position itself; a topic would add uWS's own batching
    // per socket, which dropped a socket's pending batch when it unsubscribed (see above).
    const c = await liveAfterFrameOne();
    expect(c.conn.feed).toBe('live');
    expect(c.conn.ws?.getTopics()).toEqual([]);
  });

  it("writes the turn's frames before a direct send of the same turn, which carries their sequence", async () => {
    // Frames delivered in one turn are written together at its end; a reply sent meanwhile must
    // not overtake them (its `sequence` would then name frames the client has not seen).
    const c = await connect();
    client = c.client;
    hub.add(c.conn);
    await hub.catchUp(c.conn);
    const order: string[] = [];
    c.client.on('message', (data) => {
      const f = JSON.parse(String(data)) as { op: string; sequence: number };
      order.push(`${f.op}@${f.sequence}`);
    });
    for (let seq = 1; seq <= 3; seq++) void log.append(SESSION, entry(seq));
    sendDirect(c.conn, 'test.marker', {});
    await until(() => order.length >= 4, 'three frames and the marker');
    expect(order).toEqual(['pty.session_frame@1', 'pty.session_frame@2', 'pty.session_frame@3', 'test.marker@3']);
  });

  it('reaches every live connection, each frame once and in order', async () => {
    const json = await connect();
    const other = await connect();
    client = json.client;
    try {
      for (const c of [json, other]) {
        hub.add(c.conn);
        await hub.catchUp(c.conn);
      }
      for (let seq = 1; seq <= 5; seq++) await log.append(SESSION, entry(seq));
      await until(() => json.received.seqs.length >= 5 && other.received.seqs.length >= 5, 'five frames each');
      expect(json.received.seqs).toEqual([1, 2, 3, 4, 5]);
      expect(other.received.seqs).toEqual([1, 2, 3, 4, 5]);
      expect([json.conn.lastSeq, other.conn.lastSeq]).toEqual([5, 5]);
    } finally {
      other.client.terminate();
    }
  });

  it('keeps its sequence when it goes behind in an immediate queued before a frame', async () => {
    // The role change is answered in an immediate queued before frame 2 is delivered: whichever
    // runs first, the marker counts what arrived before it.
    const c = await liveAfterFrameOne();
    // A fresh turn: the immediate below is queued before anything frame 2 queues.
    const done = new Promise<void>((resolve, reject) =>
      setImmediate(() => leaveAndCatchUp(hub, c.conn).then(resolve, reject)),
    );
    await log.append(SESSION, entry(2));
    await done;
    await log.append(SESSION, entry(3));
    await until(() => c.received.seqs.length >= 3, 'three frames');
    await c.barrier(); // everything written so far has arrived: nothing more, nothing twice
    expect(c.received.seqs).toEqual([1, 2, 3]);
    expect(c.received.markers).toEqual([{ carried: 2, seenBefore: 2 }]);
  });

  it('is skipped forward, not sent a frame uWS would drop, when its socket is past the hard bound', async () => {
    const lagged: Conn[] = [];
    hub.dispose();
    hub = hubOn(log, lagged);
    const c = await connect();
    client = c.client;
    hub.add(c.conn);
    await hub.catchUp(c.conn);
    // A reader that stops reading, and a backlog past maxBackpressure.
    c.pauseReading();
    const big = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 16 && (c.conn.ws?.getBufferedAmount() ?? 0) <= MAX_BACKPRESSURE; i++) {
      c.conn.ws?.send(big, false);
      await new Promise((r) => setImmediate(r)); // the kernel takes what it takes at once
    }
    expect(c.conn.ws?.getBufferedAmount()).toBeGreaterThan(MAX_BACKPRESSURE);
    expect(c.conn.feed).toBe('live');
    await log.append(SESSION, entry(1));
    expect(c.conn.feed).toBe('lagged');
    expect(lagged).toEqual([c.conn]);
    expect(c.conn.lastSeq).toBe(0); // never counted as sent
  });
});
