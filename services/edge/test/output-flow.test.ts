import { LAG_DRAINED_SHARE, LAG_WATCH_MS, SLOW_GRACE_MS, type LogEntry } from '@pty-ws/ports';
import { ManualClock } from '@pty-ws/testkit';
import { advance, moveFeed, newConn, type Conn } from '../src/ws/connection';
import { OutputFlow } from '../src/ws/output-flow';

/**
 * OutputFlow's per-reader rule on a ManualClock, with sockets reduced to their backlog: the grace
 * before a live reader is skipped, the hard bound, and the lag watch that resumes a skipped reader
 * once its socket drained. (The same rule over real sockets: hub-*.test.ts.)
 */
const SLOW = 1024 * 1024;
const HARD = 4 * SLOW;

interface Reader {
  conn: Conn;
  backlog: number;
}

function reader(): Reader {
  const r = {} as Reader;
  r.backlog = 0;
  r.conn = newConn({
    clientId: `c${Math.random()}`,
    instanceId: 'i',
    sessionId: 's',
    principal: { id: 'p', scopes: new Set(['pty:observe']) },
    binary: false,
    remoteAddress: '127.0.0.1',
  });
  advance(r.conn, 'ready');
  advance(r.conn, 'joined');
  r.conn.ws = { getBufferedAmount: () => r.backlog, ping: () => 1 } as unknown as Conn['ws'];
  moveFeed(r.conn, 'live');
  return r;
}

function flowOf(readers: Reader[], clock: ManualClock) {
  const lagged: Conn[] = [];
  const drainedChecks: Conn[] = [];
  const passed: LogEntry[] = [];
  const conns = new Set(readers.map((r) => r.conn));
  const flow: OutputFlow = new OutputFlow({
    sessionId: 's',
    clock,
    conns,
    slowConsumerBytes: SLOW,
    hardBacklogBytes: HARD,
    onLagged: (conn) => lagged.push(conn),
    onDrained: (conn) => {
      drainedChecks.push(conn);
      flow.drained(conn);
    },
    pass: (entry) => passed.push(entry),
  });
  return { flow, lagged, drainedChecks, passed };
}

describe('OutputFlow on a ManualClock', () => {
  it('skips a live reader whose backlog stays past the threshold for SLOW_GRACE_MS, not a burst', () => {
    const clock = new ManualClock();
    const r = reader();
    const { flow, lagged } = flowOf([r], clock);
    r.backlog = SLOW + 1;
    flow.checkLive(r.conn); // the grace begins
    clock.advance(SLOW_GRACE_MS - 1);
    flow.checkLive(r.conn);
    expect(lagged).toEqual([]);
    r.backlog = SLOW; // drained to the threshold for a moment: the grace starts over
    flow.checkLive(r.conn);
    r.backlog = SLOW + 1;
    flow.checkLive(r.conn);
    clock.advance(SLOW_GRACE_MS - 1);
    flow.checkLive(r.conn);
    expect(lagged).toEqual([]);
    clock.advance(1);
    flow.checkLive(r.conn);
    expect(lagged).toEqual([r.conn]);
    expect(r.conn.feed).toBe('lagged');
    flow.dispose();
  });

  it('skips a reader past the hard bound at once', () => {
    const clock = new ManualClock();
    const r = reader();
    const { flow, lagged } = flowOf([r], clock);
    r.backlog = HARD + 1;
    flow.checkLive(r.conn);
    expect(lagged).toEqual([r.conn]);
    flow.dispose();
  });

  it('looks at a lagged reader every LAG_WATCH_MS and resumes it once drained, then stops looking', () => {
    const clock = new ManualClock();
    const r = reader();
    const { flow, drainedChecks } = flowOf([r], clock);
    r.backlog = HARD + 1;
    flow.checkLive(r.conn);
    clock.advance(LAG_WATCH_MS - 1);
    expect(drainedChecks).toEqual([]);
    clock.advance(1);
    expect(drainedChecks).toEqual([r.conn]);
    expect(r.conn.feed).toBe('lagged'); // not drained yet
    r.backlog = SLOW * LAG_DRAINED_SHARE;
    clock.advance(LAG_WATCH_MS);
    expect(r.conn.feed).toBe('behind'); // resumed: LAGGED, a Keyframe and a catch-up follow
    clock.advance(LAG_WATCH_MS); // none lagged: the watch ends
    expect(clock.pendingCount).toBe(0);
    flow.dispose();
  });

  it('passes entries on while output flows', () => {
    const clock = new ManualClock();
    const { flow, passed } = flowOf([reader()], clock);
    const entry = { type: 'output', seq: 1, id: 'a', ts: 0, stream: 'stdout', data: new Uint8Array(1) } as LogEntry;
    flow.admit(entry);
    expect(passed).toEqual([entry]);
    flow.dispose();
  });
});
