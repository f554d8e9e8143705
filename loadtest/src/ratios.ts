/**
 * Ratios against the raw-node-pty baseline of the same run: value(target) / value(raw). For
 * latency and memory above 1 means the service costs more; for throughput below 1 means it
 * delivers less per reader than one process reading its own PTY.
 */
import type { FanoutMetric, TargetResult } from './types';

export type Ratios = Record<string, number>;

function ratio(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return undefined;
  return Math.round((a / b) * 100) / 100;
}

/** `floor`: the raw uWS publish, the baseline of the fan-out figures (total MB/s). */
export function ratiosFor(t: TargetResult, raw: TargetResult | undefined, floor?: TargetResult): Ratios {
  const out: Ratios = {};
  if (floor && floor.status !== 'skipped' && t.status !== 'skipped') {
    for (const [n, f] of Object.entries(t.metrics.throughput)) {
      const v = ratio(f.total_mb_s, floor.metrics.throughput[n]?.total_mb_s);
      if (v !== undefined) out[`throughput_${n}_total`] = v;
    }
    const big = ratio(t.metrics.fanout_big?.total_mb_s, floor.metrics.fanout_big?.total_mb_s);
    if (big !== undefined) out['fanout_big_total'] = big;
  }
  if (!raw || raw.status === 'skipped' || t.status === 'skipped') return out;
  const m = t.metrics;
  const r = raw.metrics;
  const put = (k: string, v: number | undefined): void => {
    if (v !== undefined) out[k] = v;
  };
  put('echo_1_p50', ratio(m.echo_1?.p50_ms, r.echo_1?.p50_ms));
  put('echo_1_p99', ratio(m.echo_1?.p99_ms, r.echo_1?.p99_ms));
  put('echo_loaded_p50', ratio(m.echo_loaded?.p50_ms, r.echo_loaded?.p50_ms));
  put('echo_loaded_p99', ratio(m.echo_loaded?.p99_ms, r.echo_loaded?.p99_ms));
  // Every fan-out size is compared with the single raw reader: what one viewer gets.
  const base = r.throughput['1']?.per_observer_mb_s;
  for (const [n, f] of Object.entries(m.throughput))
    put(`throughput_${n}_per_observer`, ratio(f.per_observer_mb_s, base));
  put('idle_memory_per_session', ratio(m.idle_memory?.per_session_kb, r.idle_memory?.per_session_kb));
  return out;
}

/** A paired median (metrics/stream-rounds.ts) counts only against the baseline it names. */
function pairedWith(f: FanoutMetric | undefined, baseline: string): number | undefined {
  const v = f?.paired?.name === baseline ? f.paired.median_ratio : undefined;
  return v !== undefined && Number.isFinite(v) ? v : undefined;
}

/**
 * The median of the ratios of rounds run back to back with the baseline's: one stream against raw
 * node-pty, the big fan-out against the uWS floor. Unlike the ratio of two medians measured
 * minutes apart, it does not carry the machine's drift in between.
 */
export function pairedRatios(t: TargetResult): Ratios {
  const out: Ratios = {};
  const stream = pairedWith(t.metrics.throughput['1'], 'raw-node-pty');
  if (stream !== undefined) out['throughput_1_per_observer_paired'] = stream;
  const big = pairedWith(t.metrics.fanout_big, 'uws-floor');
  if (big !== undefined) out['fanout_big_total_paired'] = big;
  return out;
}
