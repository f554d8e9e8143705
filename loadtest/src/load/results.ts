/** The JSON a `npm run loadtest` run writes, as the report reads it back (validated, not trusted). */
import type { MetricSummary, SeriesPoint, ThresholdResult } from './recorder';
import { SCENARIOS, THRESHOLDS, type ScenarioName } from './thresholds';

export interface LoadResult {
  tool: string;
  scenario: ScenarioName;
  started_at: string;
  target: string;
  connections: number;
  duration_s: number;
  elapsed_s: number;
  metrics: Record<string, MetricSummary>;
  thresholds: ThresholdResult[];
  series: SeriesPoint[];
  passed: boolean;
  error?: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Throws with the first thing that is not what a loadtest run writes. */
export function parseResult(text: string, where: string): LoadResult {
  const v: unknown = JSON.parse(text);
  const fail = (why: string): never => {
    throw new Error(`${where}: not a loadtest result (${why})`);
  };
  if (!isRecord(v)) return fail('not an object');
  if (!(SCENARIOS as readonly unknown[]).includes(v['scenario'])) fail('unknown scenario');
  for (const k of ['connections', 'duration_s', 'elapsed_s'])
    if (typeof v[k] !== 'number' || !Number.isFinite(v[k])) fail(`${k} is not a number`);
  if (!isRecord(v['metrics'])) fail('no metrics');
  if (!Array.isArray(v['thresholds'])) fail('no thresholds');
  if (!Array.isArray(v['series'])) fail('no series');
  for (const p of v['series'] as unknown[]) if (!isRecord(p) || typeof p['t'] !== 'number') fail('bad series point');
  if (typeof v['passed'] !== 'boolean') fail('no passed flag');
  return v as unknown as LoadResult;
}

/** The scenario's latency trend (the first trend its thresholds name), if it has one. */
export function latencyMetric(r: LoadResult): string | undefined {
  return Object.keys(THRESHOLDS[r.scenario]).find((m) => r.metrics[m]?.type === 'trend');
}

/** What "throughput" means for the scenario: its counter (bytes/s), else its latency samples per second. */
export function throughputSeries(r: LoadResult): { key: string; label: string } | undefined {
  const counter = Object.keys(THRESHOLDS[r.scenario]).find(
    (m) => r.metrics[m]?.type === 'counter' && m !== 'ptyws_lagged',
  );
  if (counter) return { key: `${counter}_per_s`, label: `${counter} per second` };
  const trend = latencyMetric(r) ?? Object.keys(r.metrics).find((m) => r.metrics[m]?.type === 'trend');
  return trend ? { key: `${trend}_per_s`, label: `${trend} samples per second` } : undefined;
}
