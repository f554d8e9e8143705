/**
 * The reconnect-storm verdict (loadtest/src/load/replay-check.ts), shared by the k6 script and the
 * Node driver. The frame sequences below are what a single-node server sends: RoleAssigned with 0,
 * then the replayed log, the join's MembershipChanged and its Keyframe (anchored at the head).
 */
import { firstLogSequence, replayResumed, type ReplayProbe } from '../../loadtest/src/load/replay-check';

/** A re-join after `lastSeen`: binding_hello, RoleAssigned, then `log` (sequences), then the flush Keyframe. */
function probe(lastSeen: number, log: number[], extra: Partial<ReplayProbe> = {}): ReplayProbe {
  const head = log.length ? Math.max(...log) : lastSeen;
  return { lastSeen, sequences: [0, 0, ...log, head], outOfRange: false, keyframe: true, ...extra };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('replay check', () => {
  it('passes a replay that resumes right after the last sequence seen', () => {
    expect(replayResumed(probe(10, range(11, 31)))).toBe(true);
    expect(firstLogSequence(probe(10, range(11, 31)).sequences)).toBe(11);
  });

  it('fails a re-join without replay_from: the first log frame is the head, not last + 1', () => {
    // The probe: 25 frames printed during the pause, the join's MembershipChanged at 36.
    expect(replayResumed(probe(10, [36, 37, 38]))).toBe(false);
  });

  it('fails a replay that skips frames or repeats the last one seen', () => {
    expect(replayResumed(probe(10, range(12, 30)))).toBe(false);
    expect(replayResumed(probe(10, range(10, 30)))).toBe(false);
  });

  it('fails REPLAY_OUT_OF_RANGE, a join that never got its Keyframe, and a probe with nothing seen', () => {
    expect(replayResumed(probe(10, range(11, 20), { outOfRange: true }))).toBe(false);
    expect(replayResumed(probe(10, range(11, 20), { keyframe: false }))).toBe(false);
    expect(replayResumed(probe(-1, range(1, 5)))).toBe(false);
    expect(replayResumed({ lastSeen: 10, sequences: [0, 0], outOfRange: false, keyframe: true })).toBe(false);
  });
});
