/**
 * k6-style metrics for the Node driver: Trends (ms samples), Counters and Rates, each sample
 * stamped so the results carry a per-second time series next to the totals.
 */
import { percentile } from '../stats';
import { guard, holds, parseThreshold } from './thresholds';

export type MetricType = 'trend' | 'counter' | 'rate';

interface Sample {
  /** ms since the run started */
  t: number;
  v: number;
}

export interface MetricSummary {
  type: MetricType;
  count: number;
  /** trend: ms; counter: total; rate: fraction of true samples */
  avg?: number;
  min?: number;
  med?: number;
  max?: number;
  p90?: number;
  p95?: number;
  p99?: number;
  /** counter: total / run seconds (k6's counter rate); rate: fraction true */
  rate?: number;
}

export interface ThresholdResult {
  metric: string;
  expression: string;
  actual: number | null;
  ok: boolean;
}

/** One second of the run: the trend percentiles and counter/rate throughput of that second. */
export interface SeriesPoint {
  t: number;
  [metric: string]: number | null;
}

const round = (v: number): number => Math.round(v * 1000) / 1000;

export class Recorder {
  readonly start = performance.now();
  private readonly metrics = new Map<string, { type: MetricType; samples: Sample[] }>();

  private now(): number {
    return performance.now() - this.start;
  }

  private series(name: string, type: MetricType): Sample[] {
    let m = this.metrics.get(name);
    if (!m) {
      m = { type, samples: [] };
      this.metrics.set(name, m);
    }
    return m.samples;
  }

  trend(name: string, ms: number): void {
    this.series(name, 'trend').push({ t: this.now(), v: ms });
  }

  count(name: string, n = 1): void {
    this.series(name, 'counter').push({ t: this.now(), v: n });
  }

  rate(name: string, ok: boolean): void {
    this.series(name, 'rate').push({ t: this.now(), v: ok ? 1 : 0 });
  }

  /** k6's `check`: one sample of the built-in `checks` rate (and of its guard, as k6/lib.ts verify()). */
  check(ok: boolean): boolean {
    this.rate('checks', ok);
    this.sampled('checks');
    return ok;
  }

  /** One sample went into metric `of`: counted by its guard `ptyws_samples{of:…}` (`count>0`). */
  sampled(of: string): void {
    this.count(guard(of));
  }

  /** Declares a metric so it is reported even with no samples (a counter that stayed 0). */
  declare(name: string, type: MetricType): void {
    this.series(name, type);
  }

  samplesOf(name: string): number {
    return this.metrics.get(name)?.samples.length ?? 0;
  }

  summary(durationS: number): Record<string, MetricSummary> {
    const out: Record<string, MetricSummary> = {};
    for (const [name, m] of this.metrics) {
      const values = m.samples.map((s) => s.v);
      if (m.type === 'trend') {
        const sorted = [...values].sort((a, b) => a - b);
        const sum = sorted.reduce((s, v) => s + v, 0);
        out[name] = sorted.length
          ? {
              type: 'trend',
              count: sorted.length,
              avg: round(sum / sorted.length),
              min: round(sorted[0] as number),
              med: round(percentile(sorted, 50)),
              max: round(sorted[sorted.length - 1] as number),
              p90: round(percentile(sorted, 90)),
              p95: round(percentile(sorted, 95)),
              p99: round(percentile(sorted, 99)),
            }
          : { type: 'trend', count: 0 };
      } else if (m.type === 'counter') {
        const total = values.reduce((s, v) => s + v, 0);
        out[name] = { type: 'counter', count: total, rate: round(total / Math.max(durationS, 0.001)) };
      } else {
        const trues = values.filter((v) => v === 1).length;
        out[name] = {
          type: 'rate',
          count: values.length,
          ...(values.length ? { rate: round(trues / values.length) } : {}),
        };
      }
    }
    return out;
  }

  /** Per-second buckets: `<trend>_p50/_p95/_p99`, `<counter>_per_s`, `<rate>_rate`. */
  timeSeries(): SeriesPoint[] {
    // A loop, not Math.max(...samples): spreading ~150k arguments overflows the stack.
    let lastT = 0;
    for (const m of this.metrics.values()) for (const s of m.samples) if (s.t > lastT) lastT = s.t;
    const seconds = Math.floor(lastT / 1000) + 1;
    // Each metric's values bucketed by second in one pass (not one filter per second).
    const buckets = new Map<string, number[][]>();
    for (const [name, m] of this.metrics) {
      const perSecond: number[][] = Array.from({ length: seconds }, () => []);
      for (const s of m.samples) (perSecond[Math.floor(s.t / 1000)] as number[]).push(s.v);
      buckets.set(name, perSecond);
    }
    const points: SeriesPoint[] = [];
    for (let sec = 0; sec < seconds; sec++) {
      const p: SeriesPoint = { t: sec };
      for (const [name, m] of this.metrics) {
        const vs = buckets.get(name)![sec] as number[];
        if (m.type === 'trend') {
          const sorted = vs.sort((a, b) => a - b);
          for (const q of [50, 95, 99]) p[`${name}_p${q}`] = sorted.length ? round(percentile(sorted, q)) : null;
          p[`${name}_per_s`] = sorted.length;
        } else if (m.type === 'counter') {
          p[`${name}_per_s`] = vs.reduce((s, v) => s + v, 0);
        } else {
          p[`${name}_rate`] = vs.length ? round(vs.filter((v) => v === 1).length / vs.length) : null;
        }
      }
      points.push(p);
    }
    return points;
  }

  evaluate(thresholds: Record<string, string[]>, durationS: number): ThresholdResult[] {
    const summary = this.summary(durationS);
    const results: ThresholdResult[] = [];
    for (const [metric, exprs] of Object.entries(thresholds)) {
      for (const expression of exprs) {
        const t = parseThreshold(expression);
        const s = summary[metric];
        let actual: number | undefined;
        if (s) {
          const pm = /^p\((\d+(?:\.\d+)?)\)$/.exec(t.stat);
          if (pm) {
            const sorted = this.metrics
              .get(metric)!
              .samples.map((x) => x.v)
              .sort((a, b) => a - b);
            actual = sorted.length ? percentile(sorted, Number(pm[1])) : undefined;
          } else if (t.stat === 'rate') actual = s.rate;
          else if (t.stat === 'count') actual = s.count;
          else actual = t.stat === 'med' ? s.med : (s[t.stat as 'avg' | 'min' | 'max'] as number | undefined);
        }
        // k6 fails a threshold on a metric with no samples only for rates/trends; a counter that
        // never counted is 0.
        const value = actual ?? (s?.type === 'counter' ? 0 : undefined);
        results.push({
          metric,
          expression,
          actual: value === undefined ? null : round(value),
          ok: value !== undefined && holds(value, t),
        });
      }
    }
    return results;
  }
}
