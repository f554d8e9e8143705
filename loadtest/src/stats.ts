/** Latency summaries. Nearest-rank percentiles: with few samples p99 is simply the maximum. */
export interface LatencySummary {
  samples: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function summarize(ms: number[]): LatencySummary {
  const sorted = [...ms].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  return {
    samples: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    mean_ms: round(sorted.length ? sum / sorted.length : NaN),
    max_ms: round(sorted.length ? (sorted[sorted.length - 1] as number) : NaN),
  };
}

/** Three decimals: sub-millisecond echo latencies of the raw baseline still show. */
export function round(v: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

export function mean(values: number[]): number {
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : NaN;
}
