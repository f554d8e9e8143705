/**
 * Command line and run profiles. Every size lives here so a reader of the JSON (which embeds the
 * chosen profile) knows exactly what was measured; the three profiles differ only in sizes.
 */
import type { EchoRun } from './channel';

export const TARGET_NAMES = ['raw-node-pty', 'uws-floor', 'relay-floor', 'wetty', 'embedded', 'cluster'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export interface Profile {
  name: 'full' | 'quick' | 'tiny';
  /** Soft wall-time budget for the whole run; phases that would start after it are skipped. */
  budgetMs: number;
  /** Echo round trips measured per echo scenario. */
  echoSamples: number;
  /**
   * Round trips typed and discarded before those, on every target alike, in the measured session
   * and in each warm-up session. The figures are those of steady typing in a running server, not
   * of a process's first seconds (those are reported apart, as `first_session`).
   */
  echoWarmup: number;
  /** Sessions typed through and closed before the measured ones (EchoRun.warmupSessions). */
  echoWarmupSessions: number;
  /** Sessions in the loaded echo scenario (one measured, the rest typing in the background). */
  loadedSessions: number;
  /** Keystrokes per second each background session types. */
  busyRateHz: number;
  /** Random bytes base64-encoded by the flooding session (output is ~1.37x this). */
  floodBytes: number;
  /** The same for the one-reader stream (throughput with 1 observer): long enough for steady state. */
  streamBytes: number;
  /** Rounds of the one-reader stream per target; the median round is reported (metrics/stream-rounds.ts). */
  streamRounds: number;
  /** Pause after a service's round: the service archives a stream's transcript in it. */
  streamRoundPauseMs: number;
  /**
   * Pause after a round of a target that archives nothing (raw node-pty, the floors, wetty): only
   * for the round's PTY and sockets to be gone before the next starts.
   */
  streamSettleMs: number;
  /** Observer counts of the fan-out scenarios. */
  observers: number[];
  /**
   * The big fan-out: this many observers of one session printing base64 of `floodBytes` (~1.37×
   * that), `rounds` times; the median round is reported (metrics/stream-rounds.ts).
   */
  bigFanout: { observers: number; floodBytes: number; rounds: number };
  /** Log frames of history (the log head) before the attach measurement. */
  historyFrames: number;
  /** Attaches per attach variant. */
  attaches: number;
  /** Idle `/bin/cat` sessions for the memory measurement. */
  idleSessions: number;
}

const PROFILES: Record<Profile['name'], Profile> = {
  full: {
    name: 'full',
    // 210 s left the cluster fan-out out on a VM whose raw node-pty streamed at 46 MB/s (64-71 on others).
    budgetMs: 300_000,
    // 1000: a p99 of 200 samples is the second-worst round trip, one scheduler hiccup.
    echoSamples: 1000,
    echoWarmup: 2000,
    echoWarmupSessions: 3,
    loadedSessions: 50,
    busyRateHz: 20,
    floodBytes: 4_000_000,
    streamBytes: 36_500_000, // 50 MB of output
    // Single rounds swing by up to a third within a minute on a 2-core machine: three rounds put the
    // single-node stream anywhere from 0.72 to 0.86x raw within an hour.
    streamRounds: 5,
    streamRoundPauseMs: 3000,
    streamSettleMs: 500,
    observers: [1, 10, 100],
    bigFanout: { observers: 100, floodBytes: 36_500_000, rounds: 3 }, // 50 MB of output
    historyFrames: 1000,
    attaches: 10,
    idleSessions: 100,
  },
  // A smoke run of every scenario at reduced sizes: the figures are indicative only.
  quick: {
    name: 'quick',
    budgetMs: 50_000,
    echoSamples: 50,
    echoWarmup: 200,
    echoWarmupSessions: 2,
    loadedSessions: 10,
    busyRateHz: 20,
    floodBytes: 1_000_000,
    streamBytes: 7_300_000,
    streamRounds: 1,
    streamRoundPauseMs: 0,
    streamSettleMs: 0,
    observers: [1, 10, 50],
    bigFanout: { observers: 100, floodBytes: 7_300_000, rounds: 1 }, // 10 MB
    historyFrames: 150,
    attaches: 2,
    idleSessions: 30,
  },
  // The CI smoke run: every code path, tiny sizes, no meaningful numbers.
  tiny: {
    name: 'tiny',
    budgetMs: 40_000,
    echoSamples: 20,
    echoWarmup: 5,
    echoWarmupSessions: 1,
    loadedSessions: 5,
    busyRateHz: 20,
    floodBytes: 200_000,
    streamBytes: 200_000,
    streamRounds: 2, // the median's code path, not its steadiness
    streamRoundPauseMs: 100,
    streamSettleMs: 50,
    observers: [1, 3, 10],
    bigFanout: { observers: 10, floodBytes: 200_000, rounds: 2 }, // the median's code path
    historyFrames: 40,
    attaches: 2,
    idleSessions: 10,
  },
};

/** The echo scenario's sample and warm-up counts. */
export function echoRun(p: Profile): EchoRun {
  return { samples: p.echoSamples, warmup: p.echoWarmup, warmupSessions: p.echoWarmupSessions };
}

export interface Options {
  profile: Profile;
  targets: TargetName[];
  /** JSON output path; default bench-results/<timestamp>.json under the repository root. */
  out: string | undefined;
  /** Also print the summary as a Markdown table, and write it beside the JSON (`<name>.md`). */
  markdown: boolean;
  /** Render this earlier run's JSON as the Markdown summary and exit: nothing is measured. */
  markdownFrom: string | undefined;
}

export const USAGE = `usage: npm run bench -- [--quick | --tiny] [--only <target>[,<target>…]] [--out <file.json>] [--markdown]
       npm run --silent bench -- --markdown-from <file.json>
  targets: ${TARGET_NAMES.join(', ')}
  --quick   smaller sizes (~45 s with cluster mode, ~20 s without); indicative figures only
  --tiny    CI smoke run: every code path with tiny sizes (numbers are not meaningful)
  --only    run only these targets (ratios need raw-node-pty in the same run)
  --out     write the JSON here instead of bench-results/<timestamp>.json
  --markdown        also print the summary as a Markdown table and write it beside the JSON (.md)
  --markdown-from   print the Markdown summary of an earlier run's JSON; runs nothing`;

export function parseArgs(argv: string[]): Options {
  let profile: Profile = PROFILES.full;
  let targets: TargetName[] = [...TARGET_NAMES];
  let out: string | undefined;
  let markdown = false;
  let markdownFrom: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') profile = PROFILES.quick;
    else if (a === '--tiny') profile = PROFILES.tiny;
    else if (a === '--markdown') markdown = true;
    else if (a === '--only' || a === '--out' || a === '--markdown-from') {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value\n${USAGE}`);
      if (a === '--out') out = v;
      else if (a === '--markdown-from') markdownFrom = v;
      else targets = parseTargets(v);
    } else if (a === '--help' || a === '-h') throw new Error(USAGE);
    else throw new Error(`unknown argument '${a}'\n${USAGE}`);
  }
  return { profile: { ...profile }, targets, out, markdown, markdownFrom };
}

function parseTargets(list: string): TargetName[] {
  const names = list.split(',').map((s) => s.trim());
  for (const n of names) {
    if (!(TARGET_NAMES as readonly string[]).includes(n))
      throw new Error(`unknown target '${n}' (one of ${TARGET_NAMES.join(', ')})`);
  }
  // Keep the canonical order so raw-node-pty (the ratio baseline) always runs first.
  return TARGET_NAMES.filter((t) => names.includes(t));
}
