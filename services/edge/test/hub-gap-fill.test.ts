import { GAP_POLL_MS, GAP_STORE_WAIT_MS, type FrameLog, type LogEntry } from '@pty-ws/ports';
import { ManualClock } from '@pty-ws/testkit';
import { silentLogger } from '../src/logger';
import { SessionHub } from '../src/ws/session-hub';
import { outputEntry } from './support/real-socket';

/**
 * A live copy ahead of the store leaves a gap the hub fills from the log. An entry the log never
 * stores (trimmed before it could be read) is given up after GAP_STORE_WAIT_MS of the hub's clock,
 * so the feed never waits for good; one stored meanwhile is delivered in order.
 */
function hubOn(stored: LogEntry[], clock: ManualClock) {
  let feed: ((e: LogEntry) => void) | undefined;
  const log = {
    subscribe: (_s: string, fn: (e: LogEntry) => void) => {
      feed = fn;
      return () => (feed = undefined);
    },
    bounds: async () => ({ firstSeq: 1, lastSeq: stored.at(-1)?.seq ?? 0 }),
    read: async (_s: string, afterSeq: number, o?: { toSeq?: number }) =>
      stored.filter((e) => e.seq > afterSeq && e.seq <= (o?.toSeq ?? Infinity)),
  } as unknown as FrameLog;
  const delivered: number[] = [];
  const hub = new SessionHub('s', 0, {
    log,
    logger: silentLogger,
    clock,
    slowConsumerBytes: 1 << 20,
    hardBacklogBytes: 1 << 22,
    onLagged: () => undefined,
    onEntry: (e) => delivered.push(e.seq),
  });
  return { hub, delivered, feed: (e: LogEntry) => feed?.(e) };
}

/** Moves the clock `ms` on, a poll at a time, letting the hub's reads resolve after each. */
async function walk(clock: ManualClock, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += GAP_POLL_MS) {
    clock.advance(GAP_POLL_MS);
    await new Promise((r) => setImmediate(r));
  }
}

describe('SessionHub: a gap in the live feed', () => {
  it('waits GAP_STORE_WAIT_MS on its clock for entries the log has not stored, then gives them up', async () => {
    const clock = new ManualClock();
    const stored: LogEntry[] = [];
    const { hub, delivered, feed } = hubOn(stored, clock);
    feed(outputEntry(3, 8)); // 1 and 2 not stored yet
    await walk(clock, GAP_STORE_WAIT_MS - 100);
    expect(delivered).toEqual([]);
    expect(hub.head).toBe(0);
    await walk(clock, 200);
    expect(delivered).toEqual([3]); // 1 and 2 given up: the feed goes on
    hub.dispose();
  });

  it('delivers what the log stores while it waits, in order, before what waited for it', async () => {
    const clock = new ManualClock();
    const stored: LogEntry[] = [];
    const { hub, delivered, feed } = hubOn(stored, clock);
    feed(outputEntry(3, 8));
    await walk(clock, 1000);
    stored.push(outputEntry(1, 8), outputEntry(2, 8), outputEntry(3, 8));
    await walk(clock, GAP_POLL_MS * 2);
    expect(delivered).toEqual([1, 2, 3]);
    hub.dispose();
  });
});
