/**
 * One reader's stream, measured several times: the median round stands for the target.
 *
 * A single 50 MB stream moved by ±15 % from one run to the next on this 2-core VM, for every
 * target alike (the producer and the reader share the cores with whatever else the machine
 * does), so one round made "0.8× raw node-pty" a coin toss. Each target takes the median of
 * `Profile.streamRounds`, and the JSON keeps every round's MB/s.
 */
import type { Profile } from '../options';
import { sleep } from '../phase';
import type { FanoutMetric } from '../types';

/**
 * Runs `once` `p.streamRounds` times (at least once) and returns the median round, with every
 * round's MB/s. Rounds are `p.streamRoundPauseMs` apart: the service writes a stream's transcript
 * in the pause after it (ARCHITECTURE, "Archiving yields to live output"), and the next round
 * must not run into that.
 */
export async function medianStream(p: Profile, once: () => Promise<FanoutMetric>): Promise<FanoutMetric> {
  const runs: FanoutMetric[] = [];
  for (let i = 0; i < Math.max(1, p.streamRounds); i++) {
    if (i > 0) await sleep(p.streamRoundPauseMs);
    runs.push(await once());
  }
  const byRate = [...runs].sort((a, b) => a.per_observer_mb_s - b.per_observer_mb_s);
  // The lower middle for an even count: a figure the runs reached, never an average of two.
  const median = byRate[Math.floor((byRate.length - 1) / 2)] as FanoutMetric;
  return { ...median, rounds_mb_s: runs.map((r) => r.per_observer_mb_s) };
}
