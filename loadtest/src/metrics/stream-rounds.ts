/**
 * A throughput measured several times: the median round stands for the target.
 *
 * A single 50 MB stream moved by ±15 % from one run to the next on this 2-core VM, for every
 * target alike (the producer and the reader share the cores with whatever else the machine
 * does), so one round made "0.8× raw node-pty" a coin toss. The big fan-out moved more: the uWS
 * floor alone gave 1569–2726 MB/s in nine runs of one hour, and the service 1272–2403 (how many
 * of the 100 readers one process serves fall behind the others, and are skipped, changes from
 * run to run). Each target takes the median of its rounds, and the JSON keeps every round's figure.
 *
 * The medians alone still carry the machine's drift: each target runs as its own block, minutes
 * apart, and across three runs within a day raw node-pty streamed at 62.8–75.4 MB/s and the floor
 * fanned out at 1555–2248 while the service stayed at 54.0–55.0 and 1731–1765 (loadtest/README.md,
 * "Paired rounds"). So a target may also run a baseline's round just before each of its own:
 * each pair shares the machine's state of that moment, and the median of the pairs' ratios is
 * reported beside the ratio of the medians.
 */
import { Cleanup, log, sleep } from '../phase';
import type { Profile } from '../options';
import type { FanoutMetric, PairedBaseline } from '../types';

/** One round of a measurement. */
export type Round = () => Promise<FanoutMetric>;

/** A baseline's round, run just before each of a target's own rounds. */
export interface Baseline {
  /** The baseline's target name, as in the report (raw-node-pty, uws-floor). */
  name: string;
  round: Round;
}

/**
 * The middle item by `key`, the lower middle for an even count: a figure the runs reached, never
 * an average of two. `items` must not be empty.
 */
function lowerMiddle<T>(items: readonly T[], key: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)] as T;
}

/**
 * Runs `once` `rounds` times (at least once), `pauseMs` apart, and returns the median round by
 * `rate`. With a baseline, each round is that baseline's round and then `once`, back to back, and
 * `paired` holds the baseline's figures and each pair's ratio. The pause comes after `once`, not
 * between the two: the service writes a stream's transcript in it, and the baseline must not run
 * into that.
 */
async function medianRound(
  rounds: number,
  pauseMs: number,
  rate: (m: FanoutMetric) => number,
  once: Round,
  baseline?: Baseline,
): Promise<{ median: FanoutMetric; runs: FanoutMetric[]; paired?: PairedBaseline }> {
  const runs: FanoutMetric[] = [];
  const before: number[] = [];
  for (let i = 0; i < Math.max(1, rounds); i++) {
    if (i > 0) await sleep(pauseMs);
    if (baseline) before.push(await baselineRate(baseline, rate));
    runs.push(await once());
  }
  const median = lowerMiddle(runs, rate);
  if (!baseline) return { median, runs };
  return { median, runs, paired: pairedBaseline(baseline.name, before, runs.map(rate)) };
}

/**
 * A baseline round's figure, or NaN when it failed: the target's own round still runs (a broken
 * baseline must not cost the target its figure); that pair then has no ratio.
 */
async function baselineRate(baseline: Baseline, rate: (m: FanoutMetric) => number): Promise<number> {
  try {
    return rate(await baseline.round());
  } catch (err) {
    log(`  paired ${baseline.name} round failed: ${(err as Error).message}`);
    return Number.NaN;
  }
}

/** Each pair's ratio (target / baseline) and their median, to two decimals as every ratio. */
export function pairedBaseline(name: string, baseline: number[], own: number[]): PairedBaseline {
  const ratios = own.map((v, i) => Math.round((v / (baseline[i] as number)) * 100) / 100);
  const usable = ratios.filter((r) => Number.isFinite(r));
  return {
    name,
    rounds: baseline,
    ratios,
    median_ratio: usable.length > 0 ? lowerMiddle(usable, (r) => r) : Number.NaN,
  };
}

/**
 * The one-reader stream, `p.streamRounds` times. A service's rounds are `p.streamRoundPauseMs`
 * apart: it writes a stream's transcript in the pause after it (ARCHITECTURE, "Archiving yields to
 * live output"), and the next round must not run into that. A target that archives nothing
 * (`archives: false`: raw node-pty, the floors, wetty) only waits `p.streamSettleMs` for its PTY
 * and sockets to be gone: the pause would add seconds to the run and measure nothing.
 */
export async function medianStream(
  p: Profile,
  once: Round,
  opts: { baseline?: Baseline; archives: boolean },
): Promise<FanoutMetric> {
  const { median, runs, paired } = await medianRound(
    p.streamRounds,
    opts.archives ? p.streamRoundPauseMs : p.streamSettleMs,
    (m) => m.per_observer_mb_s,
    once,
    opts.baseline,
  );
  return { ...median, rounds_mb_s: runs.map((r) => r.per_observer_mb_s), ...(paired ? { paired } : {}) };
}

/** `once` with a Cleanup of its own, run as soon as the round ends. */
export function ownCleanup(once: (c: Cleanup) => Promise<FanoutMetric>): Round {
  return async () => {
    const c = new Cleanup();
    try {
      return await once(c);
    } finally {
      await c.run();
    }
  };
}

/**
 * The big fan-out, `p.bigFanout.rounds` times, by total MB/s. Each round's readers (and the
 * floor's server) are gone before the next starts: 100 idle sockets per round would otherwise
 * stay until the phase ends.
 */
export async function medianFanout(
  p: Profile,
  once: (c: Cleanup) => Promise<FanoutMetric>,
  baseline?: Baseline,
): Promise<FanoutMetric> {
  const { median, runs, paired } = await medianRound(
    p.bigFanout.rounds,
    p.streamRoundPauseMs,
    (m) => m.total_mb_s,
    ownCleanup(once),
    baseline,
  );
  return { ...median, rounds_total_mb_s: runs.map((r) => r.total_mb_s), ...(paired ? { paired } : {}) };
}
