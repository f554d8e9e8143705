/** The JSON result shapes (also what the smoke test checks). Units are in the field names. */
import type { LatencySummary } from './stats';

export interface EchoMetric extends LatencySummary {
  sessions: number;
  /** Background keystrokes per second on each of the other sessions. */
  busy_rate_hz: number;
  /** CPU% of the process(es) hosting the sessions while sampling (100 = one core). */
  server_cpu_pct: number;
  /** The first warm-up session's echoes (profile.echoWarmup of them): a fresh process's first user. */
  first_session?: LatencySummary;
}

export interface FanoutMetric {
  observers: number;
  /** Bytes per observer, mean (PW1O payload bytes for the service). */
  bytes_per_observer: number;
  /** MB = 10^6 bytes; per observer from the start signal to its end marker. */
  per_observer_mb_s: number;
  min_observer_mb_s: number;
  /** All observers' bytes over the time until the last one finished. */
  total_mb_s: number;
  duration_ms: number;
  /** CPU% of the process(es) hosting the terminal and the fan-out (100 = one core). */
  server_cpu_pct: number;
  /** CPU% of the benchmark process (the readers); near 100 means the client is the bottleneck. */
  client_cpu_pct: number;
  /**
   * The benchmark's event loop (the readers): busy share in % and milliseconds of garbage
   * collection over the same window (reader-loop.ts). Near 100: the readers were the bound.
   */
  client_loop_pct: number;
  client_gc_ms: number;
  /** CPU% of the whole machine over the same window (every process; cores × 100 = none idle). */
  machine_cpu_pct: number;
  /** Observers that got PTY_OUTPUT_LAGGED (skipped forward as slow consumers). */
  lagged_observers: number;
  /** Observers that never saw the end marker (e.g. it was inside a skipped range). */
  incomplete_observers: number;
  /** One-reader streams: every round's MB/s, in order; the other fields are the median round's. */
  rounds_mb_s?: number[];
  /** The big fan-out: every round's total MB/s, in order; the other fields are the median round's. */
  rounds_total_mb_s?: number[];
  /** A baseline's rounds, each run just before one of these rounds (metrics/stream-rounds.ts). */
  paired?: PairedBaseline;
}

/** A baseline measured alternately with a target: round i of each ran back to back. */
export interface PairedBaseline {
  /** The baseline target (raw-node-pty for one stream, uws-floor for the big fan-out). */
  name: string;
  /** The baseline's figure in each round, in order (MB/s per reader, or total MB/s). */
  rounds: number[];
  /** Each round's figure of the target over the baseline's of the same round. */
  ratios: number[];
  /** The median of `ratios` (the lower middle for an even count). */
  median_ratio: number;
}

export interface AttachMetric extends LatencySummary {
  format: 'json' | 'binary';
  /** true: join with replay_from 0 (the whole history is sent before the Keyframe). */
  replay: boolean;
  /** Log head when the attach started (binding_hello current_sequence). */
  history_frames: number;
  /** new WebSocket() until 'open' (TCP + upgrade + auth), p50. */
  connect_ms_p50: number;
  /** Frames and bytes of the join flush, mean. */
  flush_frames: number;
  flush_bytes: number;
}

export interface MemoryMetric {
  sessions: number;
  rss_before_kb: number;
  rss_after_kb: number;
  per_session_kb: number;
}

export interface TargetMetrics {
  echo_1?: EchoMetric;
  echo_loaded?: EchoMetric;
  /** Keyed by observer count. */
  throughput: Record<string, FanoutMetric>;
  /** The big fan-out (profile.bigFanout): 100 observers × 50 MB in the full profile. */
  fanout_big?: FanoutMetric;
  /** keyframe_json, keyframe_binary, replay_json, replay_binary. */
  attach: Record<string, AttachMetric>;
  idle_memory?: MemoryMetric;
}

export interface TargetResult {
  name: string;
  /** ok: every phase ran; partial: some failed (see errors); error: none ran; skipped: not run. */
  status: 'ok' | 'partial' | 'error' | 'skipped';
  reason?: string;
  errors: Record<string, string>;
  metrics: TargetMetrics;
  /** Process facts: pids measured, RSS at start. */
  process?: Record<string, number | string>;
  wall_ms: number;
}

export function emptyResult(name: string): TargetResult {
  return { name, status: 'ok', errors: {}, metrics: { throughput: {}, attach: {} }, wall_ms: 0 };
}
