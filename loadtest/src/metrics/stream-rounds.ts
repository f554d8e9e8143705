/**
 * A throughput measured several times: the median round stands for the target.
 *
 * A single 50 MB stream moved by ±15 % from one run to the next on this 2-core VM, for every
 * target alike (the producer and the reader share the cores with whatever else the machine
 * does), so one round made "0.8× raw node-pty" a coin toss. The big fan-out moved more: the uWS
 * floor alone gave 1569–2726 MB/s in nine runs of one hour, and the service 1272–2403 (how many
 * of the 100 readers one process serves fall behind the others, and are skipped, changes from
 * run to run). Each target takes the median of its rounds, and the JSON keeps every round's figure.
 */
import { Cleanup, sleep } from '../phase';
import type { Profile } from '../options';
import type { FanoutMetric } from '../types';

/**
 * Runs `once` `rounds` times (at least once), `pauseMs` apart, and returns the median round by
 * `rate`. The lower middle for an even count: a figure the runs reached, never an average of two.
 */
async function medianRound(
  rounds: number,
  pauseMs: number,
  rate: (m: FanoutMetric) => number,
  once: () => Promise<FanoutMetric>,
): Promise<{ median: FanoutMetric; runs: FanoutMetric[] }> {
  const runs: FanoutMetric[] = [];
  for (let i = 0; i < Math.max(1, rounds); i++) {
    if (i > 0) await sleep(pauseMs);
    runs.push(await once());
  }
  const byRate = [...runs].sort((a, b) => rate(a) - rate(b));
  return { median: byRate[Math.floor((byRate.length - 1) / 2)] as FanoutMetric, runs };
}

/**
 * The one-reader stream, `p.streamRounds` times. Rounds are `p.streamRoundPauseMs` apart: the
 * service writes a stream's transcript in the pause after it (ARCHITECTURE, "Archiving yields to
 * live output"), and the next round must not run into that.
 */
export async function medianStream(p: Profile, once: () => Promise<FanoutMetric>): Promise<FanoutMetric> {
  const { median, runs } = await medianRound(p.streamRounds, p.streamRoundPauseMs, (m) => m.per_observer_mb_s, once);
  return { ...median, rounds_mb_s: runs.map((r) => r.per_observer_mb_s) };
}

/**
 * The big fan-out, `p.bigFanout.rounds` times, by total MB/s. Each round's readers (and the
 * floor's server) are gone before the next starts: 100 idle sockets per round would otherwise
 * stay until the phase ends.
 */
export async function medianFanout(p: Profile, once: (c: Cleanup) => Promise<FanoutMetric>): Promise<FanoutMetric> {
  const round = async (): Promise<FanoutMetric> => {
    const c = new Cleanup();
    try {
      return await once(c);
    } finally {
      await c.run();
    }
  };
  const { median, runs } = await medianRound(p.bigFanout.rounds, p.streamRoundPauseMs, (m) => m.total_mb_s, round);
  return { ...median, rounds_total_mb_s: runs.map((r) => r.total_mb_s) };
}
