import type { Conn } from '../src/ws/connection';
import { PACE_MAX_HOLD_MS, PACE_REFRESH_MS, PaceWatch } from '../src/ws/pace-watch';

/** The edge's half of "output goes at the pace of its fastest reader": readers are fake sockets. */
interface FakeReader {
  backlog: number;
  feed: 'live' | 'lagged' | 'behind';
  open: boolean;
}

function reader(backlog = 0): FakeReader {
  return { backlog, feed: 'live', open: true };
}

function asConn(r: FakeReader): Conn {
  return {
    get feed() {
      return r.feed;
    },
    get open() {
      return r.open;
    },
    ws: { getBufferedAmount: () => r.backlog },
  } as unknown as Conn;
}

const HIGH = 512 * 1024;
const LOW = 128 * 1024;

function watch(readers: FakeReader[]) {
  const reports: boolean[] = [];
  const w = new PaceWatch({
    conns: { [Symbol.iterator]: () => readers.map(asConn)[Symbol.iterator]() },
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

  it('counts a skipped (lagged) reader as behind and a closed one not at all; no readers, no hold', () => {
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
});
