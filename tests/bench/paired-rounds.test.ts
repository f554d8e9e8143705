/**
 * Paired rounds (loadtest/src/metrics/stream-rounds.ts): each round of a target runs right after
 * a round of its baseline, and the median of the pairs' ratios is reported. Plain functions here;
 * bench-smoke runs them for real.
 */
import { medianStream, pairedBaseline, type Baseline } from '../../loadtest/src/metrics/stream-rounds';
import type { Profile } from '../../loadtest/src/options';
import type { FanoutMetric } from '../../loadtest/src/types';

const metric = (mbs: number): FanoutMetric => ({
  observers: 1,
  bytes_per_observer: 1,
  per_observer_mb_s: mbs,
  min_observer_mb_s: mbs,
  total_mb_s: mbs,
  duration_ms: 1,
  server_cpu_pct: 0,
  client_cpu_pct: 0,
  client_loop_pct: 0,
  client_gc_ms: 0,
  machine_cpu_pct: 0,
  lagged_observers: 0,
  incomplete_observers: 0,
});

const profile = { streamRounds: 3, streamRoundPauseMs: 0, streamSettleMs: 0 } as Profile;

/** A round function that returns `figures` in turn and records the order of all calls in `calls`. */
function rounds(name: string, figures: number[], calls: string[], fail: number[] = []): () => Promise<FanoutMetric> {
  let i = 0;
  return async () => {
    const n = i++;
    calls.push(`${name}${n}`);
    if (fail.includes(n)) throw new Error(`${name} round ${n} broke`);
    return metric(figures[n]!);
  };
}

describe('paired rounds', () => {
  it("runs the baseline's round just before each of the target's and reports each pair's ratio and their median", async () => {
    const calls: string[] = [];
    const baseline: Baseline = { name: 'raw-node-pty', round: rounds('raw', [60, 40, 50], calls) };
    const m = await medianStream(profile, rounds('svc', [48, 36, 30], calls), { baseline, archives: true });
    expect(calls).toEqual(['raw0', 'svc0', 'raw1', 'svc1', 'raw2', 'svc2']);
    expect(m.per_observer_mb_s).toBe(36); // the median of the target's own rounds
    expect(m.rounds_mb_s).toEqual([48, 36, 30]);
    // 0.8, 0.9, 0.6: the pairs' median is 0.8, though the ratio of the medians would be 36 / 50 = 0.72.
    expect(m.paired).toEqual({
      name: 'raw-node-pty',
      rounds: [60, 40, 50],
      ratios: [0.8, 0.9, 0.6],
      median_ratio: 0.8,
    });
  });

  it("keeps the target's figure when a baseline round fails: that pair has no ratio", async () => {
    const calls: string[] = [];
    const baseline: Baseline = { name: 'raw-node-pty', round: rounds('raw', [60, 0, 50], calls, [1]) };
    const m = await medianStream(profile, rounds('svc', [48, 36, 30], calls), { baseline, archives: true });
    expect(calls).toEqual(['raw0', 'svc0', 'raw1', 'svc1', 'raw2', 'svc2']);
    expect(m.per_observer_mb_s).toBe(36);
    expect(m.paired?.ratios[1]).toBeNaN();
    expect(m.paired?.median_ratio).toBe(0.6); // of 0.8 and 0.6, the lower middle
  });

  it('takes the lower middle of an even count, and has no median without a usable pair', () => {
    expect(pairedBaseline('uws-floor', [100, 100, 100, 100], [90, 70, 80, 60]).median_ratio).toBe(0.7);
    expect(pairedBaseline('uws-floor', [0], [10]).median_ratio).toBeNaN();
  });

  it('runs without a baseline as before', async () => {
    const calls: string[] = [];
    const m = await medianStream(profile, rounds('svc', [48, 36, 30], calls), { archives: true });
    expect(calls).toEqual(['svc0', 'svc1', 'svc2']);
    expect(m.paired).toBeUndefined();
  });

  it("pauses after a service's rounds for its transcript, and only settles after the others'", async () => {
    const paced = { streamRounds: 3, streamRoundPauseMs: 300, streamSettleMs: 0 } as Profile;
    const gaps = async (archives: boolean): Promise<number[]> => {
      const starts: number[] = [];
      await medianStream(
        paced,
        () => {
          starts.push(performance.now());
          return Promise.resolve(metric(40));
        },
        { archives },
      );
      return starts.slice(1).map((t, i) => t - (starts[i] as number));
    };
    for (const gap of await gaps(true)) expect(gap).toBeGreaterThanOrEqual(290);
    for (const gap of await gaps(false)) expect(gap).toBeLessThan(290);
  });
});
