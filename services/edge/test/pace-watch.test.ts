import { PACE_MAX_HOLD_MS, PACE_PROBE_GAP_MS, PACE_PROBE_LATE_MS, PACE_REFRESH_MS } from '@pty-ws/ports';
import { ManualClock } from '@pty-ws/testkit';
import type { Conn } from '../src/ws/connection';
import { PACE_PROBE_PAYLOAD, probeAnswered } from '../src/ws/output-flow/pace-probe';
import { PaceWatch } from '../src/ws/output-flow/pace-watch';

/** The edge's half of "output goes at the pace of most of its readers": readers are fake sockets. */
interface FakeReader {
  backlog: number;
  feed: 'live' | 'lagged' | 'behind';
  open: boolean;
  /** Pace probes sent to it (pings with the probe payload). */
  probes: number;
  role?: 'controller' | 'observer';
  conn?: Conn;
}

function reader(backlog = 0): FakeReader {
  return { backlog, feed: 'live', open: true, probes: 0 };
}

/** One Conn per reader, kept: a probe's state lives on the connection. */
function asConn(r: FakeReader): Conn {
  r.conn ??= {
    get feed() {
      return r.feed;
    },
    get open() {
      return r.open;
    },
    get role() {
      return r.role;
    },
    ws: {
      getBufferedAmount: () => r.backlog,
      ping: (payload: string) => {
        if (payload === PACE_PROBE_PAYLOAD) r.probes++;
        return 0;
      },
    },
  } as unknown as Conn;
  return r.conn;
}

const SLOW = 1024 * 1024;
const HIGH = 512 * 1024;
const LOW = 128 * 1024;

function watch(readers: FakeReader[]) {
  const reports: boolean[] = [];
  const w = new PaceWatch({
    // Each test passes its "now" to delivered() and check(); the poll's timer never fires.
    clock: new ManualClock(),
    conns: { [Symbol.iterator]: () => readers.map(asConn)[Symbol.iterator]() },
    slowBytes: SLOW,
    highBytes: HIGH,
    lowBytes: LOW,
    report: (behind) => reports.push(behind),
  });
  return { w, reports };
}

describe('PaceWatch', () => {
  let w: PaceWatch | undefined;
  afterEach(() => w?.dispose());

  it('asks to hold output when every reader is past the high mark, and not while one is under it', () => {
    const a = reader(HIGH + 1);
    const b = reader(HIGH);
    const t = watch([a, b]);
    w = t.w;
    w.check(0);
    expect(t.reports).toEqual([]);
    b.backlog = HIGH + 1;
    w.check(1);
    expect(t.reports).toEqual([true]);
    expect(w.holding).toBe(true);
  });

  it('holds output once most readers are past the high mark, though one keeps up: a burst must not skip them all', () => {
    // A cluster edge gets log entries in bursts of megabytes: a reader whose kernel buffers still
    // have room shows no backlog, while the others pass the hard bound and are skipped forward.
    const fast = reader(0);
    const a = reader(HIGH + 1);
    const b = reader(HIGH);
    const t = watch([fast, a, b]);
    w = t.w;
    w.check(0);
    expect(t.reports).toEqual([]); // one of three behind
    b.backlog = HIGH + 1;
    w.check(1);
    expect(t.reports).toEqual([true]); // two of three
    expect(w.holding).toBe(true);
    // The fast reader is at the low mark, but most are still behind: output stays held.
    w.check(2);
    expect(w.holding).toBe(true);
    // One of them is back under the high mark: most are not behind, and one keeps up.
    a.backlog = HIGH;
    w.check(3);
    expect(t.reports).toEqual([true, false]);
    expect(w.holding).toBe(false);
  });

  it('a minority that stops reading holds nobody; a majority holds the others for PACE_MAX_HOLD_MS, once', () => {
    const paused = [reader(8 * SLOW), reader(8 * SLOW)];
    const live = [reader(0), reader(0), reader(0)];
    const t = watch([...paused, ...live]);
    w = t.w;
    w.check(0);
    expect(t.reports).toEqual([]); // two of five
    live[0]!.backlog = 8 * SLOW; // three of five stopped reading
    w.check(10);
    expect(t.reports).toEqual([true]);
    w.check(10 + PACE_MAX_HOLD_MS);
    expect(t.reports).toEqual([true, false]); // stuck: the two that read get output again
    w.check(20 + PACE_MAX_HOLD_MS);
    expect(t.reports).toEqual([true, false]);
  });

  it('observers never hold back a controller that keeps up; one that falls behind too is waited for', () => {
    const controller = reader(0);
    controller.role = 'controller';
    const observers = [reader(8 * SLOW), reader(8 * SLOW), reader(8 * SLOW)];
    const t = watch([controller, ...observers]);
    w = t.w;
    w.check(0);
    expect(t.reports).toEqual([]); // three of four behind, but the one who drives keeps up
    controller.backlog = HIGH + 1;
    w.check(1);
    expect(t.reports).toEqual([true]);
    controller.backlog = LOW; // the controller caught up: output flows at its pace again
    w.check(2);
    expect(t.reports).toEqual([true, false]);
  });

  it('lets go at the low mark, not the high one, so output resumes in runs', () => {
    const a = reader(HIGH + 1);
    const t = watch([a]);
    w = t.w;
    w.check(0);
    a.backlog = LOW + 1;
    w.check(10);
    expect(t.reports).toEqual([true]);
    a.backlog = LOW;
    w.check(20);
    expect(t.reports).toEqual([true, false]);
    expect(w.holding).toBe(false);
  });

  it('repeats the hold while it lasts, so the owner never lets it lapse', () => {
    const a = reader(HIGH + 1);
    const t = watch([a]);
    w = t.w;
    w.check(0);
    w.check(PACE_REFRESH_MS - 1);
    expect(t.reports).toEqual([true]);
    w.check(PACE_REFRESH_MS);
    expect(t.reports).toEqual([true, true]);
  });

  it('gives up on readers that drain nothing for PACE_MAX_HOLD_MS, until one keeps up again', () => {
    const a = reader(HIGH + 1);
    const t = watch([a]);
    w = t.w;
    w.check(0);
    w.check(PACE_MAX_HOLD_MS);
    expect(t.reports.at(-1)).toBe(false);
    expect(w.holding).toBe(false);
    w.check(PACE_MAX_HOLD_MS + 10); // still stuck: no new hold
    expect(t.reports).toEqual([true, false]);
    a.backlog = 0;
    w.check(PACE_MAX_HOLD_MS + 20);
    a.backlog = HIGH + 1;
    w.check(PACE_MAX_HOLD_MS + 30); // recovered, then behind again: held again
    expect(t.reports.at(-1)).toBe(true);
  });

  it('leaves a skipped (lagged) reader and a closed one out; only lagged ones: held; no readers, no hold', () => {
    const lagged = reader(0);
    lagged.feed = 'lagged';
    const closed = reader(0);
    closed.open = false;
    const t = watch([lagged, closed]);
    w = t.w;
    w.check(0);
    expect(t.reports).toEqual([true]);
    lagged.open = false;
    w.check(1);
    expect(t.reports).toEqual([true, false]);
    const none = watch([]);
    none.w.check(0);
    expect(none.reports).toEqual([]);
  });

  it('dispose lets go of a hold', () => {
    const t = watch([reader(HIGH + 1)]);
    t.w.check(0);
    t.w.dispose();
    expect(t.reports).toEqual([true, false]);
  });

  describe('pace probes: what the kernel buffers for a reader does not show in its backlog', () => {
    it('probes a reader once LOW bytes of output flowed, one probe at a time, PACE_PROBE_GAP_MS after an answer', () => {
      const a = reader(0);
      const t = watch([a]);
      w = t.w;
      w.delivered(LOW - 1, 0);
      expect(a.probes).toBe(0); // an echo's worth of output: no probe
      w.delivered(1, 1);
      expect(a.probes).toBe(1);
      w.delivered(4 * LOW, 2);
      expect(a.probes).toBe(1); // the first is still out
      probeAnswered(asConn(a), 3);
      w.delivered(LOW, 3 + PACE_PROBE_GAP_MS - 1);
      expect(a.probes).toBe(1);
      w.delivered(LOW, 3 + PACE_PROBE_GAP_MS);
      expect(a.probes).toBe(2);
    });

    it('holds output for a late reader with no backlog once another is near a skip, and lets go when it answers', () => {
      const late = reader(0);
      const slow = reader(HIGH + 1);
      const t = watch([late, slow]);
      w = t.w;
      w.delivered(LOW, 0); // both probed
      w.delivered(LOW, PACE_PROBE_LATE_MS + 1); // both late, but no reader is near a skip yet
      expect(t.reports).toEqual([]);
      slow.backlog = SLOW + 1;
      w.delivered(LOW, PACE_PROBE_LATE_MS + 2);
      expect(t.reports).toEqual([true]);
      w.check(PACE_PROBE_LATE_MS + 3); // the late reader has read nothing more: still held
      expect(t.reports).toEqual([true]);
      probeAnswered(asConn(late), PACE_PROBE_LATE_MS + 4);
      w.check(PACE_PROBE_LATE_MS + 5);
      expect(t.reports).toEqual([true, false]);
    });

    it('does not hold for late readers alone: what their kernels buffer flows', () => {
      const a = reader(0);
      const b = reader(HIGH);
      const t = watch([a, b]);
      w = t.w;
      w.delivered(LOW, 0);
      w.delivered(10 * LOW, 10 * PACE_PROBE_LATE_MS);
      expect(t.reports).toEqual([]);
    });

    it('a reader that answers keeps up, whoever else is late or near a skip', () => {
      const answers = reader(0);
      const slow = reader(SLOW + 1);
      const t = watch([answers, slow]);
      w = t.w;
      w.delivered(LOW, 0);
      probeAnswered(asConn(answers), 1);
      w.delivered(LOW, PACE_PROBE_LATE_MS + 2);
      expect(t.reports).toEqual([]);
    });
  });
});
