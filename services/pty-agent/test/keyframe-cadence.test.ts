import { MemoryFrameLog } from '@pty-ws/adapters-memory';
import type { LogEntry } from '@pty-ws/ports';
import { ManualClock } from '@pty-ws/testkit';
import { Keyframes } from '../src/session/keyframes';
import { Sequencer } from '../src/session/sequencer';
import type { TerminalMirror } from '../src/mirror/terminal-mirror';

/**
 * The time half of the keyframe cadence (keyframe_interval_seconds) on a controllable clock: the
 * conformance test runs it on a real PTY in real time; here time moves only when the test says,
 * so the bound is checked exactly instead of within a wall-clock slack.
 */
const S = 'cadence';
const INTERVAL_MS = 1000;

/** A mirror whose snapshot is ready at once: what is tested is when keyframes are made, not what they show. */
const screen: TerminalMirror = {
  cols: 80,
  rows: 24,
  write: () => {},
  resize: () => {},
  snapshot: () => Promise.resolve({ snapshot: 'screen', cols: 80, rows: 24 }),
  dispose: () => {},
};

function cadence() {
  const clock = new ManualClock();
  const log = new MemoryFrameLog();
  const sequencer = new Sequencer({ sessionId: S, log, lastSeq: 0, clock, onFailure: () => {} });
  const keyframes = new Keyframes({
    screen,
    sequencer,
    lastSeq: 0,
    intervalMs: INTERVAL_MS,
    intervalFrames: 1_000_000, // never by frames: only time makes keyframes here
    lifecycle: () => 'running',
    clock,
  });
  const start = clock.now();
  /** Moves time on in small steps, letting snapshots resolve at the time they were asked for. */
  const advance = async (ms: number) => {
    for (let done = 0; done < ms; done += 50) {
      clock.advance(50);
      for (let i = 0; i < 3; i++) await Promise.resolve();
    }
  };
  const output = (text: string) => keyframes.outputLogged(sequencer.output('stdout', Buffer.from(text)));
  const entries = async (): Promise<LogEntry[]> => {
    await sequencer.flushed();
    return log.read(S, 0);
  };
  return { clock, keyframes, start, advance, output, entries };
}

const keyframeTimes = (entries: LogEntry[]) =>
  entries.filter((e) => e.type === 'event' && e.payload['kind'] === 'Keyframe').map((e) => e.ts);

describe('keyframe cadence by time, on a manual clock', () => {
  it('logs a Keyframe at least every keyframe_interval_seconds while output flows', async () => {
    const c = cadence();
    try {
      for (let i = 0; i < 15; i++) {
        c.output(`tick${i}\n`);
        await c.advance(200);
      }
      const times = keyframeTimes(await c.entries());
      expect(times.length).toBeGreaterThanOrEqual(2);
      let previous = c.start;
      for (const at of times) {
        expect(at - previous).toBeLessThanOrEqual(INTERVAL_MS);
        previous = at;
      }
    } finally {
      c.keyframes.dispose();
    }
  });

  it('logs none while the session is quiet, once the last output is covered', async () => {
    const c = cadence();
    try {
      c.output('once\n');
      await c.advance(3 * INTERVAL_MS);
      const afterOutput = await c.entries();
      expect(keyframeTimes(afterOutput)).toHaveLength(1);
      expect(afterOutput[afterOutput.length - 1]?.type).toBe('event'); // the keyframe covers the output
      await c.advance(10 * INTERVAL_MS);
      expect(await c.entries()).toHaveLength(afterOutput.length);
    } finally {
      c.keyframes.dispose();
    }
  });

  it('stops the cadence timer on dispose', () => {
    const c = cadence();
    expect(c.clock.pendingCount).toBe(1);
    c.keyframes.dispose();
    expect(c.clock.pendingCount).toBe(0);
  });
});
