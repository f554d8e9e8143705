import { MemoryFrameLog } from '@pty-ws/adapters-memory';
import {
  PACE_MAX_HOLD_MS,
  PACE_POLL_MS,
  SLOW_GRACE_MS,
  type Clock,
  type FrameLog,
  type LogBounds,
  type LogEntry,
  type RetentionPolicy,
  type Unsubscribe,
} from '@pty-ws/ports';
import { ManualClock } from '@pty-ws/testkit';
import { silentLogger } from '../src/logger';
import { sendMessage } from '../src/uws';
import type { Conn } from '../src/ws/connection';
import { SessionHub } from '../src/ws/session-hub';
import {
  joinAll,
  outputEntry,
  startSocketServer,
  until,
  walkUntil,
  type Connected,
  type SocketServer,
} from './support/real-socket';

/**
 * While every reader of a session on this edge is behind, the owner is asked to stop reading the
 * PTY (output-flow/pace-watch.ts). What it had already sent by then still arrives (cluster: up to 4 MiB of
 * appends in flight in JetStream). Published into the sockets of paused readers, that passed
 * the hard backlog bound and skipped a sole reader the hold was meant to keep (CI, cluster mode,
 * tests/conformance/reader-pace). The hub keeps it back until a reader keeps up again, up to a
 * bound past which readers that cannot take it are skipped as before. Real uWS, real sockets.
 */
const SESSION = 's1';
const MAX_BACKPRESSURE = 2 * 1024 * 1024;
const HARD_BACKLOG = MAX_BACKPRESSURE - 512 * 1024;
const CHUNK = 64 * 1024;

let server: SocketServer;
beforeAll(async () => (server = await startSocketServer(MAX_BACKPRESSURE)));
afterAll(() => server.close());

const output = (seq: number): LogEntry => outputEntry(seq, CHUNK);

/**
 * A memory log whose live feed the test drives: `append` stores and feeds as a log does, while
 * `store` and `feed` apart make what a cluster edge sees (a live copy ahead of the store: a gap).
 */
class DrivenLog implements FrameLog {
  private readonly stored = new MemoryFrameLog();
  private listener: ((entry: LogEntry) => void) | undefined;
  reads = 0;

  async append(sessionId: string, entry: LogEntry): Promise<void> {
    await this.store(sessionId, entry);
    this.feed(entry);
  }
  store(sessionId: string, entry: LogEntry): Promise<void> {
    return this.stored.append(sessionId, entry);
  }
  feed(entry: LogEntry): void {
    this.listener?.(entry);
  }
  read(sessionId: string, afterSeq: number, opts?: { toSeq?: number; limit?: number }): Promise<LogEntry[]> {
    this.reads++;
    return this.stored.read(sessionId, afterSeq, opts);
  }
  bounds(sessionId: string): Promise<LogBounds> {
    return this.stored.bounds(sessionId);
  }
  subscribe(_sessionId: string, onEntry: (entry: LogEntry) => void): Unsubscribe {
    this.listener = onEntry;
    return () => (this.listener = undefined);
  }
  trim(sessionId: string, policy: RetentionPolicy, nowMs: number): Promise<LogBounds> {
    return this.stored.trim(sessionId, policy, nowMs);
  }
  remove(sessionId: string): Promise<void> {
    return this.stored.remove(sessionId);
  }
}

describe('SessionHub: output held for readers that are all behind', () => {
  let log: DrivenLog;
  let hub: SessionHub;
  let reader: Connected;
  let seq = 0;
  let lagged: Conn[];
  let reports: boolean[];

  const append = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) await log.append(SESSION, output(++seq));
  };

  beforeEach(async () => {
    seq = 0;
    ({ log, hub, reports, lagged } = drivenHub({ slowConsumerBytes: 256 * 1024, hardBacklogBytes: HARD_BACKLOG }));
    reader = await server.connect(SESSION);
    hub.add(reader.conn);
    await hub.catchUp(reader.conn);
    expect(reader.conn.feed).toBe('live');
    // The reader pauses; output goes on until its backlog has the hub ask for a hold (the
    // kernel's socket buffers take the first megabytes).
    reader.pauseReading();
    for (let i = 0; i < 1000 && !reports.includes(true); i++) {
      await append(1);
      await new Promise((r) => setImmediate(r));
    }
    expect(reports).toEqual([true]);
  });

  afterEach(() => {
    hub.dispose();
    reader.client.terminate();
  });

  it('keeps back what arrives after the hold, then delivers every frame once, in order', async () => {
    const heldFrom = seq;
    await append(64); // 4 MiB, what an owner can have in flight
    expect(lagged).toEqual([]);
    expect(reader.conn.ws?.getBufferedAmount()).toBeLessThan(HARD_BACKLOG);
    expect(hub.head).toBe(heldFrom);

    reader.resumeReading();
    await until(() => reader.received.seqs.length === seq, `all ${seq} frames`, 10_000);
    expect(reader.received.seqs).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
    expect(lagged).toEqual([]);
    expect(reports.at(-1)).toBe(false);
    expect(hub.head).toBe(seq);
  });

  it('delivers in arrival order what comes while held output is being released', async () => {
    await append(16);
    reader.resumeReading();
    await until(() => reports.at(-1) === false, 'the release');
    await append(16);
    await until(() => reader.received.seqs.length === seq, `all ${seq} frames`, 10_000);
    expect(reader.received.seqs).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
    expect(lagged).toEqual([]);
  });

  it('publishes past the bound, and a reader that cannot take it is skipped forward as before', async () => {
    const heldFrom = seq;
    await append(160); // 10 MiB: more than an owner that holds can have in flight
    expect(lagged).toEqual([reader.conn]);
    expect(reader.conn.feed).toBe('lagged');
    expect(hub.head).toBeGreaterThan(heldFrom + 128); // 8 MiB went out
    expect(seq - hub.head).toBeLessThanOrEqual(128); // and no more than that stays held
  });
});

/**
 * A hub on a DrivenLog, with its pace reports and skipped readers. `ownerHolds`: the owner answers
 * each report with whether it holds the output (SessionControl.pace), here whenever asked.
 */
function drivenHub(opts: {
  slowConsumerBytes: number;
  hardBacklogBytes: number;
  ownerHolds?: boolean;
  clock?: Clock;
}): {
  log: DrivenLog;
  hub: SessionHub;
  reports: boolean[];
  lagged: Conn[];
} {
  const log = new DrivenLog();
  const reports: boolean[] = [];
  const lagged: Conn[] = [];
  const hub = new SessionHub(SESSION, 0, {
    log,
    logger: silentLogger,
    ...(opts.clock ? { clock: opts.clock } : {}),
    slowConsumerBytes: opts.slowConsumerBytes,
    hardBacklogBytes: opts.hardBacklogBytes,
    onLagged: (conn) => lagged.push(conn),
    onPace: (_session, behind) => {
      reports.push(behind);
      return opts.ownerHolds ? Promise.resolve(behind) : undefined;
    },
  });
  return { log, hub, reports, lagged };
}

/** A hub for a roomy server: uWS drops nothing below 15 MiB. */
const roomyHub = (slowConsumerBytes: number, clock?: Clock): ReturnType<typeof drivenHub> =>
  drivenHub({ slowConsumerBytes, hardBacklogBytes: 15 * 1024 * 1024, clock });

describe('SessionHub: output held once the owner answers that it holds', () => {
  // A cluster's log and links can hold more than 8 MiB of a flood on its way when the owner stops
  // reading: released to every reader at once, it took them all past the hard bound.
  it('keeps back more than it would on its own, then delivers every frame once, in order', async () => {
    // This edge's reader is all the session has: the owner holds whenever asked.
    const { log, hub, reports, lagged } = drivenHub({
      slowConsumerBytes: 256 * 1024,
      hardBacklogBytes: HARD_BACKLOG,
      ownerHolds: true,
    });
    const reader = await server.connect(SESSION);
    try {
      await joinAll(hub, reader);
      reader.pauseReading();
      let seq = 0;
      while (!reports.includes(true) && seq < 1000) {
        await log.append(SESSION, output(++seq));
        await new Promise((r) => setImmediate(r));
      }
      expect(reports).toEqual([true]);
      const heldFrom = seq;
      for (let i = 0; i < 256; i++) await log.append(SESSION, output(++seq)); // 16 MiB
      expect(lagged).toEqual([]);
      expect(hub.head).toBe(heldFrom);
      reader.resumeReading();
      await until(() => reader.received.seqs.length === seq, `all ${seq} frames`, 10_000);
      expect(reader.received.seqs).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
      expect(lagged).toEqual([]);
    } finally {
      hub.dispose();
      reader.client.terminate();
    }
  });
});

describe('SessionHub: a gap filled while output becomes held', () => {
  // Room for a paused reader's backlog to sit well between the pace marks (2 MiB high, 512 KiB
  // low) for the whole test, whatever the kernel's socket buffers take meanwhile.
  let roomy: SocketServer;
  beforeAll(async () => (roomy = await startSocketServer(16 * 1024 * 1024)));
  afterAll(() => roomy.close());

  // The hub looks at what the log holds before it reads: read first, an entry stored between the
  // read and the look was taken for trimmed and never delivered (the first store below does that).
  it('fills the gap with entries stored while it looked, and puts what waited for it in front of what was held meanwhile', async () => {
    const { log, hub, reports, lagged } = roomyHub(4 * 1024 * 1024);
    const paused = await roomy.connect(SESSION);
    const reading = await roomy.connect(SESSION);
    try {
      await joinAll(hub, paused, reading);
      // One reader paused far behind, one keeping up: nothing is held.
      paused.pauseReading();
      let seq = 0;
      while ((paused.conn.ws?.getBufferedAmount() ?? 0) <= 3 * 1024 * 1024 && seq < 2000) {
        await log.append(SESSION, output(++seq));
        await new Promise((r) => setImmediate(r));
      }
      expect(reports).toEqual([]);
      // A live copy ahead of the store: the hub waits for the two entries before it.
      const [gap1, gap2, waited, later] = [1, 2, 3, 4].map((i) => output(seq + i)) as LogEntry[];
      log.feed(waited as LogEntry);
      // The reader that kept up leaves; the first entry of the gap, once delivered, leaves every
      // reader behind, and output is held while the gap is still being filled.
      hub.remove(reading.conn);
      await log.store(SESSION, gap1 as LogEntry);
      await until(() => reports.includes(true), 'the hold');
      log.feed(later as LogEntry);
      for (const e of [gap2, waited, later] as LogEntry[]) await log.store(SESSION, e);
      await until(() => hub.head === seq + 2, 'the gap filled');
      const reads = log.reads;
      paused.resumeReading();
      await until(() => paused.received.seqs.length === seq + 4, 'every frame', 10_000);
      expect(paused.received.seqs).toEqual(Array.from({ length: seq + 4 }, (_, i) => i + 1));
      expect(log.reads).toBe(reads); // what waited for the gap was not taken for a second one
      expect(lagged).toEqual([]);
    } finally {
      hub.dispose();
      paused.client.terminate();
      reading.client.terminate();
    }
  });
});

describe('SessionHub: the slow-consumer grace after a hold', () => {
  // Room for both readers' backlogs, far from the hard bound: only the grace can skip here.
  let roomy: SocketServer;
  beforeAll(async () => (roomy = await startSocketServer(16 * 1024 * 1024)));
  afterAll(() => roomy.close());

  const SLOW = 256 * 1024;
  const big = (seq: number): LogEntry => outputEntry(seq, 2 * SLOW);

  /** Bytes straight into the reader's socket, past the hub (a message the client ignores), until uWS holds more than `atLeast`. */
  const fill = (reader: Connected, atLeast: number, chunk: number): void => {
    const ws = reader.conn.ws;
    for (let i = 0; ws && ws.getBufferedAmount() <= atLeast && i < 10_000; i++) {
      sendMessage(ws, JSON.stringify({ pad: 'x'.repeat(chunk) }), false);
    }
  };

  // The hub's time is a ManualClock: the grace and the hold's polls move only when the test says.
  it('starts over when output flows again: a reader behind since before a long hold is not skipped by the first frame after it', async () => {
    const clock = new ManualClock();
    roomy.useClock(clock);
    const { log, hub, reports, lagged } = roomyHub(SLOW, clock);
    const stays = await roomy.connect(SESSION); // paused throughout
    const recovers = await roomy.connect(SESSION); // paused, then reads again: output flows
    try {
      await joinAll(hub, stays, recovers);
      stays.pauseReading();
      recovers.pauseReading();
      // Their kernel buffers full: `stays` past the threshold, `recovers` just under the high mark.
      fill(stays, SLOW, 64 * 1024);
      fill(recovers, 0, 16 * 1024);
      let seq = 0;
      // One frame: `stays`' grace begins, and with both readers past the high mark output is held.
      await log.append(SESSION, big(++seq));
      expect(reports).toEqual([true]);
      expect(stays.conn.backlogSince).toBeDefined();
      expect(lagged).toEqual([]);
      clock.advance(2 * SLOW_GRACE_MS); // the hold outlasts the grace begun before it
      expect(reports.at(-1)).toBe(true);
      recovers.resumeReading();
      // The hold's poll sees `recovers` drain: released as it keeps up, not given up on as stuck.
      const waited = await walkUntil(clock, () => reports.at(-1) === false, 'the release', { step: PACE_POLL_MS });
      expect(2 * SLOW_GRACE_MS + waited).toBeLessThan(PACE_MAX_HOLD_MS);
      // `recovers` has read each frame before the next comes (no time passes on the hub's clock):
      // it keeps up, so output is not held again and only the grace can skip `stays`.
      const appendRead = async (): Promise<void> => {
        await log.append(SESSION, big(++seq));
        await until(() => recovers.received.seqs.length === seq, `frame ${seq} read`);
      };
      await appendRead();
      expect(stays.conn.ws?.getBufferedAmount()).toBeGreaterThan(SLOW);
      expect(lagged).toEqual([]);
      // Still slower than most: not skipped within a grace of its own, skipped once it ran out.
      clock.advance(SLOW_GRACE_MS - 1);
      await appendRead();
      expect(lagged).toEqual([]);
      clock.advance(1);
      await appendRead();
      expect(lagged).toEqual([stays.conn]);
      expect(reports.at(-1)).toBe(false);
    } finally {
      hub.dispose();
      stays.client.terminate();
      recovers.client.terminate();
    }
  });
});
