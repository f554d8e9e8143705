import type WebSocket from 'ws';
import { MemoryFrameLog } from '@pty-ws/adapters-memory';
import type { LogEntry } from '@pty-ws/ports';
import { silentLogger } from '../src/logger';
import type { Conn } from '../src/ws/connection';
import { closeCutSession, type CutCloseDeps } from '../src/ws/log-cut-close';
import { SessionHub } from '../src/ws/session-hub';
import { joinAll, startSocketServer, until, type Connected, type SocketServer } from './support/real-socket';

/**
 * The `Closed` reason `error` an edge makes from a cut notice takes a sequence no real frame has:
 * the one after the highest this edge knows the log holds, which is the number the log's own
 * `Closed` gets once its owner appends it. A reader skipped forward (lagged) when the notice comes
 * was sent less than that: its `Closed` must not take its own last sequence + 1, a number that
 * belongs to an Output it was never sent; its Error says where to replay the rest from. Real uWS,
 * real sockets, the edge's SessionHub over a memory log.
 */
const SESSION = 's-cut-seq';
const MAX_BACKPRESSURE = 1024 * 1024;

let server: SocketServer;
beforeAll(async () => (server = await startSocketServer(MAX_BACKPRESSURE)));
afterAll(() => server.close());

interface Frame {
  op: string;
  sequence?: number;
  payload: Record<string, unknown>;
}

/** Every JSON frame the client receives, parsed. */
function framesOf(client: WebSocket): Frame[] {
  const frames: Frame[] = [];
  client.on('message', (data) => {
    const f = JSON.parse(String(data)) as Partial<Frame>;
    if (typeof f.op === 'string') frames.push(f as Frame);
  });
  return frames;
}

function output(seq: number): LogEntry {
  return { type: 'output', seq, id: `id-${seq}`, ts: Date.now(), stream: 'stdout', data: Buffer.from(`out ${seq}`) };
}

const closedOf = (frames: Frame[]) => frames.filter((f) => f.payload['kind'] === 'Closed');

describe('a cut notice: the Closed made for each reader takes the sequence after the log it knows', () => {
  let log: MemoryFrameLog;
  let hub: SessionHub;
  const readers: Connected[] = [];

  beforeEach(() => {
    log = new MemoryFrameLog();
    hub = new SessionHub(SESSION, 0, {
      log,
      logger: silentLogger,
      slowConsumerBytes: 64 * 1024,
      hardBacklogBytes: MAX_BACKPRESSURE / 2,
      onLagged: () => undefined,
    });
  });

  afterEach(() => {
    hub.dispose();
    for (const c of readers.splice(0)) c.client.terminate();
  });

  it('a reader lagging when the notice comes: Closed after the log it was not sent, and an Error saying where to replay from', async () => {
    const keeping = await server.connect(SESSION);
    const lagging = await server.connect(SESSION);
    readers.push(keeping, lagging);
    const frames = new Map<Connected, Frame[]>([
      [keeping, framesOf(keeping.client)],
      [lagging, framesOf(lagging.client)],
    ]);
    await joinAll(hub, keeping, lagging);
    for (let seq = 1; seq <= 3; seq++) await log.append(SESSION, output(seq));
    await until(() => keeping.received.seqs.length === 3 && lagging.received.seqs.length === 3, 'frames 1..3');
    // Its socket backed up: skipped forward, it is sent nothing until it drains.
    hub.flow.skipForward(lagging.conn);
    for (let seq = 4; seq <= 6; seq++) await log.append(SESSION, output(seq));
    await until(() => keeping.received.seqs.length === 6, 'frames 4..6 on the reader keeping up');
    expect(hub.head).toBe(6);

    // The owner numbered two frames after the log's end (lost in the outage), then gave the log up.
    const ended: Conn[] = [];
    const deps: CutCloseDeps = {
      conns: () => [keeping.conn, lagging.conn],
      hub: () => hub,
      logger: silentLogger,
      goodbye: (conn) => {
        ended.push(conn);
        conn.ws?.end(1000, 'session_closed');
      },
    };
    closeCutSession(deps, SESSION, { lastSeq: 8, message: 'the log was given up' });
    expect(ended).toEqual([keeping.conn, lagging.conn]);
    await until(
      () => [keeping, lagging].every((c) => frames.get(c)!.some((f) => f.op === 'Error')),
      'the Errors after Closed',
    );

    // The log's own Closed, once appended after what the log holds, is 7: each reader's is 7,
    // never the sequence of an Output the log holds (the lagging reader's 4).
    const { lastSeq } = await log.bounds(SESSION);
    for (const c of [keeping, lagging]) {
      expect(closedOf(frames.get(c)!).map((f) => [f.sequence, f.payload])).toEqual([
        [lastSeq + 1, { kind: 'Closed', exit_code: null, reason: 'error' }],
      ]);
    }
    const errorOf = (c: Connected) => frames.get(c)!.find((f) => f.op === 'Error')!;
    expect(errorOf(keeping).payload).toMatchObject({ code: 'INTERNAL', message: 'the log was given up' });
    // The reader that missed 4..6 is told where to read them from.
    expect(errorOf(lagging).payload['code']).toBe('INTERNAL');
    expect(String(errorOf(lagging).payload['message'])).toContain('replay_from 3');
    expect(lagging.received.seqs.filter((s) => s <= 6)).toEqual([1, 2, 3]);
  });
});
