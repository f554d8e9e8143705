import WebSocket from 'ws';
import { systemClock, type Clock, type LogEntry } from '@pty-ws/ports';
import { waitUntil, type ManualClock } from '@pty-ws/testkit';
import { uWS, type TemplatedApp, type us_listen_socket, type WebSocket as UwsSocket } from '../../src/uws';
import { advance, newConn, type Conn, type ConnSocketData } from '../../src/ws/connection';
import { isProbeAnswer, probeAnswered } from '../../src/ws/output-flow';
import type { SessionHub } from '../../src/ws/session-hub';

/**
 * A real uWS app and real client sockets for SessionHub tests: what uWS batches, drops or buffers
 * per socket is the behaviour under test, so neither side is faked.
 */
export interface SocketServer {
  app: TemplatedApp;
  /**
   * A joined JSON connection on a new socket, and what its client receives. `autoPong: false`:
   * the client reads everything but answers no ping until `answerPings` is called.
   */
  connect(sessionId: string, opts?: { autoPong?: boolean }): Promise<Connected>;
  /** The clock pace probes' answers are timed by: the hubs' clock (`useClock`). */
  useClock(clock: Clock): void;
  close(): void;
}

export interface Received {
  seqs: number[];
  /** Sequences the markers carried, in arrival order, each with the frames seen before it. */
  markers: Array<{ carried: number; seenBefore: number }>;
  pings: number;
  /** Barriers received (`barrier`): everything sent before one has arrived. */
  barriers: number;
}

export interface Connected {
  conn: Conn;
  client: WebSocket;
  received: Received;
  /** Stops reading the socket (its kernel buffers, then the server's backlog, fill up). */
  pauseReading(): void;
  resumeReading(): void;
  /** Answers the pings received so far and every later one (with `autoPong: false`). */
  answerPings(): void;
  /**
   * Resolves once the client has everything the server wrote to its socket so far: a message
   * sent behind it arrived (one socket keeps order). In place of "wait and see nothing more".
   */
  barrier(): Promise<void>;
}

export async function startSocketServer(maxBackpressure: number): Promise<SocketServer> {
  /** The server side of the next socket to open. */
  let opened: ((ws: UwsSocket<ConnSocketData>) => void) | undefined;
  const connOf = new Map<UwsSocket<ConnSocketData>, Conn>();
  let clock: Clock = systemClock;
  const app = uWS.App().ws<ConnSocketData>('/*', {
    maxBackpressure,
    open: (ws) => opened?.(ws),
    // As the edge does (edge-server.ts): a pace probe's pong is its answer. (The edge's sockets
    // carry their Conn as user data from the upgrade; these have none, so a map stands in.)
    pong: (ws, message) => {
      const conn = connOf.get(ws);
      if (conn && isProbeAnswer(message)) probeAnswered(conn, clock.monotonic());
    },
    close: (ws) => connOf.delete(ws),
  });
  const listenSocket = await new Promise<us_listen_socket>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (token) => (token ? resolve(token) : reject(new Error('listen failed')))),
  );
  const port = uWS.us_socket_local_port(listenSocket);

  async function connect(sessionId: string, opts: { autoPong?: boolean } = {}): Promise<Connected> {
    const conn = newConn({
      clientId: `c${Math.random()}`,
      instanceId: 'i',
      sessionId,
      principal: { id: 'p', scopes: new Set(['pty:observe']) },
      binary: false,
      remoteAddress: '127.0.0.1',
    });
    advance(conn, 'ready');
    advance(conn, 'joined');
    const server = new Promise<UwsSocket<ConnSocketData>>((resolve) => (opened = resolve));
    const autoPong = opts.autoPong ?? true;
    const client = new WebSocket(`ws://127.0.0.1:${port}/`, { autoPong });
    const received: Received = { seqs: [], markers: [], pings: 0, barriers: 0 };
    const unanswered: Buffer[] = [];
    let answering = autoPong;
    client.on('ping', (data: Buffer) => {
      received.pings++;
      if (answering && !autoPong) client.pong(data);
      else if (!answering) unanswered.push(data);
    });
    const answerPings = (): void => {
      answering = true;
      for (const data of unanswered.splice(0)) client.pong(data);
    };
    client.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { sequence?: number; marker?: number; barrier?: true };
      if (frame.barrier) received.barriers++;
      else if (frame.marker !== undefined) {
        received.markers.push({ carried: frame.marker, seenBefore: Math.max(0, ...received.seqs) });
      } else if (frame.sequence !== undefined) received.seqs.push(frame.sequence);
    });
    client.on('error', () => undefined); // a failure shows in what was received
    await new Promise((resolve) => client.once('open', resolve));
    conn.ws = await server;
    connOf.set(conn.ws, conn);
    const socket = (client as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    const barrier = async (): Promise<void> => {
      const want = received.barriers + 1;
      conn.ws?.send(JSON.stringify({ barrier: true }), false);
      await until(() => received.barriers >= want, 'the barrier');
    };
    return {
      conn,
      client,
      received,
      pauseReading: () => socket.pause(),
      resumeReading: () => socket.resume(),
      answerPings,
      barrier,
    };
  }

  return {
    app,
    connect,
    useClock: (c) => (clock = c),
    close: () => uWS.us_listen_socket_close(listenSocket),
  };
}

/**
 * Moves the manual clock `ms` forward, `step` at a time, letting pending I/O and the hub's awaits
 * run after each step (a turn of the event loop; no time passes on the manual clock meanwhile).
 */
export async function walk(clock: ManualClock, ms: number, step = 10): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    clock.advance(Math.min(step, ms - t));
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * Until `check` holds: moves the manual clock `step` per real 10 ms poll (so its timers fire
 * while sockets do their real I/O), at most `maxMs` of it. Resolves with the manual time walked.
 */
export async function walkUntil(
  clock: ManualClock,
  check: () => boolean,
  what: string,
  { step = 10, maxMs = 10_000, timeoutMs = 10_000 }: { step?: number; maxMs?: number; timeoutMs?: number } = {},
): Promise<number> {
  const from = clock.monotonic();
  await until(
    () => {
      if (check()) return true;
      if (clock.monotonic() - from >= maxMs) throw new Error(`${what}: not within ${maxMs} ms of the manual clock`);
      clock.advance(step);
      return check();
    },
    what,
    timeoutMs,
  );
  return clock.monotonic() - from;
}

/** testkit's waitUntil, polled every 10 ms: socket tests wait for a few frames at a time. */
export async function until(check: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  await waitUntil(check, timeoutMs, what, 10);
}

/** Adds the readers to the hub and brings each live (caught up, on the session's topic). */
export async function joinAll(hub: SessionHub, ...readers: Connected[]): Promise<void> {
  for (const c of readers) {
    hub.add(c.conn);
    await hub.catchUp(c.conn);
  }
}

/** An Output log entry of `bytes` 'x's. */
export function outputEntry(seq: number, bytes: number): LogEntry {
  return { type: 'output', seq, id: `id-${seq}`, ts: Date.now(), stream: 'stdout', data: Buffer.alloc(bytes, 0x78) };
}
