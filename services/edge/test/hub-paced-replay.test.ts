import { MemoryFrameLog } from '@pty-ws/adapters-memory';
import { ROOM_POLL_MS } from '@pty-ws/ports';
import { ManualClock } from '@pty-ws/testkit';
import { silentLogger } from '../src/logger';
import type { Conn } from '../src/ws/connection';
import { SessionHub } from '../src/ws/session-hub';
import {
  outputEntry,
  startSocketServer,
  until,
  walk,
  walkUntil,
  type Connected,
  type SocketServer,
} from './support/real-socket';

/**
 * Catch-up and replay go at the reader's pace (SessionHub.sendRange): a range several times the
 * hard backlog bound reaches a reader that keeps reading whole, never skipped; a reader that drains
 * nothing is skipped forward only when the caller gives a stall time, and otherwise waited for;
 * frames the log no longer holds skip the reader forward (it is told), never leave a silent hole.
 * Real uWS, a real socket; the hub's time is a ManualClock (stalls and polls move when the test
 * walks it).
 */
const SESSION = 's-paced';
const MAX_BACKPRESSURE = 2 * 1024 * 1024;
const HARD_BACKLOG = MAX_BACKPRESSURE - 512 * 1024;
/** 320 entries of 32 KiB: 10 MiB, six times the hard bound. */
const ENTRIES = 320;
const ENTRY_BYTES = 32 * 1024;

let server: SocketServer;
beforeAll(async () => (server = await startSocketServer(MAX_BACKPRESSURE)));
afterAll(() => server.close());

let log: MemoryFrameLog;
let clock: ManualClock;
let hub: SessionHub;
let lagged: Conn[];
let reader: Connected | undefined;

beforeEach(async () => {
  log = new MemoryFrameLog();
  for (let seq = 1; seq <= ENTRIES; seq++) await log.append(SESSION, outputEntry(seq, ENTRY_BYTES));
  lagged = [];
  clock = new ManualClock();
  // Created after the appends: the hub has none of them kept, every frame comes from the log.
  hub = new SessionHub(SESSION, ENTRIES, {
    log,
    logger: silentLogger,
    clock,
    slowConsumerBytes: 256 * 1024,
    hardBacklogBytes: HARD_BACKLOG,
    onLagged: (conn) => lagged.push(conn),
  });
  reader = await server.connect(SESSION);
  hub.add(reader.conn);
});

afterEach(() => {
  hub.dispose();
  reader?.client.terminate();
});

const received = (c: Connected) => c.received.seqs;
const inOrder = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The promise's outcome once settled, walking the hub's clock a socket poll at a time meanwhile. */
async function settled<T>(p: Promise<T>, what: string): Promise<{ value: T; walked: number }> {
  let outcome: { value: T } | undefined;
  void p.then((value) => (outcome = { value }));
  const walked = await walkUntil(clock, () => outcome !== undefined, what, { step: ROOM_POLL_MS });
  return { value: (outcome as { value: T }).value, walked };
}

describe('SessionHub: replay at the reader pace', () => {
  it('catches a reader that keeps reading up from far past the hard bound, whole, then goes live', async () => {
    const c = reader!;
    await settled(hub.catchUp(c.conn), 'the catch-up');
    expect(lagged).toEqual([]);
    expect(c.conn.feed).toBe('live');
    await until(() => received(c).length >= ENTRIES, 'every frame', 10_000);
    expect(received(c)).toEqual(inOrder(ENTRIES));
  });

  it('skips forward a reader that drains nothing for the stall time', async () => {
    const c = reader!;
    c.pauseReading();
    const { value, walked } = await settled(hub.sendRange(c.conn, 0, ENTRIES, 200), 'the stall');
    expect(value).toBe(false);
    expect(walked).toBeGreaterThanOrEqual(200); // not before the stall time, on the hub's clock
    expect(lagged).toEqual([c.conn]);
    expect(c.conn.feed).toBe('lagged');
    c.resumeReading();
  });

  it('waits for a reader that stops reading for longer than that when no stall time is given', async () => {
    const c = reader!;
    c.pauseReading();
    let done = false;
    const sent = hub.sendRange(c.conn, 0, ENTRIES).finally(() => (done = true));
    // Paused until the send has waited on a full socket, well past the 200 ms above.
    await until(() => (c.conn.ws?.getBufferedAmount() ?? 0) > 0, 'the socket to back up');
    await walk(clock, 600, ROOM_POLL_MS);
    expect(done).toBe(false);
    expect(lagged).toEqual([]);
    c.resumeReading();
    expect((await settled(sent, 'the send')).value).toBe(true);
    expect(lagged).toEqual([]);
    await until(() => received(c).length >= ENTRIES, 'every frame', 10_000);
    expect(received(c)).toEqual(inOrder(ENTRIES));
  });

  it('skips forward (told, not silent) a reader whose next frames the log trimmed', async () => {
    const c = reader!;
    await log.trim(SESSION, { minFrames: ENTRIES / 2, minAgeMs: 0 }, Date.now() + 1000);
    expect(await hub.sendRange(c.conn, 0, ENTRIES)).toBe(false);
    expect(lagged).toEqual([c.conn]);
    expect(received(c)).toEqual([]);
  });
});
