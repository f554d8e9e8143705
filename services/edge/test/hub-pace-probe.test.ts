import { MemoryFrameLog } from '@pty-ws/adapters-memory';
import { PACE_MAX_HOLD_MS, PACE_POLL_MS, PACE_PROBE_LATE_MS, type LogEntry } from '@pty-ws/ports';
import { ManualClock } from '@pty-ws/testkit';
import { silentLogger } from '../src/logger';
import type { Conn } from '../src/ws/connection';
import { SessionHub } from '../src/ws/session-hub';
import {
  joinAll,
  outputEntry,
  startSocketServer,
  until,
  walk,
  walkUntil,
  type SocketServer,
} from './support/real-socket';

/**
 * What the kernel buffers for a reader does not show in uWS's backlog: on loopback a reader that
 * reads a third as fast as the output can show none for tens of megabytes. Such a reader was taken
 * for one that keeps up, output was never held for it, and the readers beside it were skipped
 * forward (cluster fan-out bench: every one of 100). The hub now pings readers while output flows
 * (pace-probe.ts); an unanswered ping says the reader has not read what was sent before it.
 * Here a client that reads everything but withholds its pongs stands for such a reader: the
 * edge cannot tell the two apart. Real uWS, real sockets.
 */
const SESSION = 's1';
// Far past what the paused reader can have waiting when output is held (~100 ms of output after
// the late reader's probe, at most ~3.5 MB here) plus what the hold kept back: at 4 MiB the
// release once pushed it past the hard bound under CI's load, and it was skipped.
const MAX_BACKPRESSURE = 16 * 1024 * 1024;
const HARD_BACKLOG = MAX_BACKPRESSURE - 512 * 1024;
const SLOW_CONSUMER = 256 * 1024;
const CHUNK = 64 * 1024;

/**
 * The hubs' time (and the probes' answers'): a ManualClock each test walks. Output is appended
 * as time passes on it (so much per step), while the sockets do their real I/O between steps.
 */
let clock: ManualClock;
let server: SocketServer;
beforeAll(async () => (server = await startSocketServer(MAX_BACKPRESSURE)));
beforeEach(() => {
  clock = new ManualClock();
  server.useClock(clock);
});
afterAll(() => server.close());

const output = (seq: number): LogEntry => outputEntry(seq, CHUNK);

const inOrder = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

interface Report {
  behind: boolean;
  at: number;
}
const behinds = (reports: Report[]): boolean[] => reports.map((r) => r.behind);

/**
 * A hub on a memory log whose pace reports and skipped readers are collected; a reader skipped
 * while the last report said "behind" (output held) also goes to skippedWhileHeld.
 */
function newHub(
  reports: Report[],
  lagged: Conn[] = [],
  skippedWhileHeld: Conn[] = [],
): { hub: SessionHub; log: MemoryFrameLog } {
  const log = new MemoryFrameLog();
  const hub = new SessionHub(SESSION, 0, {
    log,
    logger: silentLogger,
    clock,
    slowConsumerBytes: SLOW_CONSUMER,
    hardBacklogBytes: HARD_BACKLOG,
    onLagged: (conn) => {
      lagged.push(conn);
      if (reports.at(-1)?.behind === true) skippedWhileHeld.push(conn);
    },
    onPace: (_session, behind) => {
      reports.push({ behind, at: clock.monotonic() });
    },
  });
  return { hub, log };
}

describe('SessionHub: a reader late with its pace probe', () => {
  it('is behind: output is held instead of skipping a paused reader, and flows again once it answers', async () => {
    const lagged: Conn[] = [];
    const skippedWhileHeld: Conn[] = [];
    const reports: Report[] = [];
    const { hub, log } = newHub(reports, lagged, skippedWhileHeld);
    const late = await server.connect(SESSION, { autoPong: false });
    const paused = await server.connect(SESSION);
    try {
      await joinAll(hub, late, paused);
      paused.pauseReading();
      // Paced (64 KiB per 2 ms: ~32 MB/s): the late reader's first probe is late well before the
      // paused reader's backlog could pass the hard bound. Before pace probes the late reader,
      // whose backlog stays empty, kept output flowing, and the paused one was skipped.
      let seq = 0;
      while (reports.length === 0 && lagged.length === 0 && seq < 2000) {
        await log.append(SESSION, output(++seq));
        await walk(clock, 2, 2);
      }
      expect(clock.monotonic()).toBeGreaterThan(PACE_PROBE_LATE_MS); // held for the late probe
      expect(lagged).toEqual([]);
      expect(behinds(reports)).toEqual([true]);
      await until(() => late.received.seqs.length === seq, 'the late reader has read all there is');
      expect(late.received.pings).toBeGreaterThan(0);

      // What arrives while output is held is kept back, not sent into the paused socket.
      const heldFrom = seq;
      for (let i = 0; i < 8; i++) await log.append(SESSION, output(++seq));
      expect(hub.head).toBe(heldFrom);

      // Held while the late reader does not answer, though it has read all there is.
      await walk(clock, 300, PACE_POLL_MS);
      expect(behinds(reports)).not.toContain(false);
      expect(reports.length).toBeGreaterThan(1); // (the hold is repeated every PACE_REFRESH_MS)
      late.answerPings();
      await walkUntil(clock, () => reports.at(-1)?.behind === false, 'the release once the late reader answers', {
        step: PACE_POLL_MS,
      });
      // Released by the answer, not given up on after PACE_MAX_HOLD_MS.
      const released = reports.find((r) => !r.behind) as Report;
      expect(released.at - (reports[0] as Report).at).toBeLessThan(PACE_MAX_HOLD_MS);
      // Nobody was skipped while output was held. (The paused reader may be skipped right after
      // the release, before this line runs: a CI run under load saw that, so the check is made
      // when the skip happens, against the report in force then; the release reports first.)
      expect(skippedWhileHeld).toEqual([]);

      // Output flows again for the late reader, which keeps up now. The paused reader is slower
      // than it from here, so the rule lets it be skipped (a CI run saw it miss the last frames,
      // probably a release in two parts under load, with the 250 ms grace running out between).
      // What it gets is in order; the late reader gets every frame.
      paused.resumeReading();
      const pausedDone = (): boolean => paused.received.seqs.length === seq || lagged.includes(paused.conn);
      await walkUntil(clock, () => late.received.seqs.length === seq && pausedDone(), `all ${seq} frames`).catch(
        (err: Error) => {
          const got = `late ${late.received.seqs.length}, paused ${paused.received.seqs.length}`;
          throw new Error(`${err.message} (${got}, ${lagged.length} skipped, reports ${behinds(reports).join()})`);
        },
      );
      expect(late.received.seqs).toEqual(inOrder(seq));
      expect(paused.received.seqs).toEqual(inOrder(paused.received.seqs.length));
      expect(lagged.filter((c) => c !== paused.conn)).toEqual([]);
    } finally {
      hub.dispose();
      late.client.terminate();
      paused.client.terminate();
    }
  });

  it('alone, does not hold output: what its kernel buffers flows instead of waiting', async () => {
    const reports: Report[] = [];
    const { hub, log } = newHub(reports);
    const late = await server.connect(SESSION, { autoPong: false });
    try {
      await joinAll(hub, late);
      let seq = 0;
      while (clock.monotonic() < 400) {
        await log.append(SESSION, output(++seq));
        await walk(clock, 5, 5);
      }
      await until(() => late.received.seqs.length === seq, 'every frame');
      expect(late.received.pings).toBeGreaterThan(0); // probed, and late for 300 ms and more
      expect(reports).toEqual([]);
    } finally {
      hub.dispose();
      late.client.terminate();
    }
  });
});
