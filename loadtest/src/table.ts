/**
 * The printed summary: one row per figure, one column per target; in parentheses the ratio to the
 * floor (raw node-pty; for fan-out totals the raw uWS publish), for echoes and MB/s per reader
 * to the relay floor (uWS and node-pty in one process), and to the peer (wetty). One stream and the
 * big fan-out also give the median ratio of rounds run back to back with the baseline's ("paired").
 */
import type { Profile } from './options';
import type { Ratios } from './ratios';
import type { FanoutMetric, TargetResult } from './types';

/** Server CPU time per MB delivered to one reader (ms/MB): what a byte costs, whatever the speed. */
function cpuMsPerMb(f: FanoutMetric | undefined): number | undefined {
  if (!f || f.bytes_per_observer === 0) return undefined;
  return ((f.server_cpu_pct / 100) * f.duration_ms) / (f.bytes_per_observer / 1e6);
}

export interface Row {
  label: string;
  value: (t: TargetResult) => number | undefined;
  ratio?: string;
  /** The median of the ratios of rounds paired with the baseline's (ratios.ts, pairedRatios). */
  paired?: string;
  digits: number;
  /** One of the few figures of the Markdown summary (markdown.ts), the README's performance table. */
  summary?: true;
}

export function rows(p: Profile): Row[] {
  const out: Row[] = [
    {
      label: 'echo p50 ms, 1 session',
      value: (t) => t.metrics.echo_1?.p50_ms,
      ratio: 'echo_1_p50',
      digits: 3,
      summary: true,
    },
    {
      label: 'echo p99 ms, 1 session',
      value: (t) => t.metrics.echo_1?.p99_ms,
      ratio: 'echo_1_p99',
      digits: 3,
      summary: true,
    },
    {
      label: 'echo p99 ms, first session',
      value: (t) => t.metrics.echo_1?.first_session?.p99_ms,
      digits: 3,
      summary: true,
    },
    {
      label: `echo p50 ms, ${p.loadedSessions} sessions`,
      value: (t) => t.metrics.echo_loaded?.p50_ms,
      ratio: 'echo_loaded_p50',
      digits: 3,
    },
    {
      label: `echo p99 ms, ${p.loadedSessions} sessions`,
      value: (t) => t.metrics.echo_loaded?.p99_ms,
      ratio: 'echo_loaded_p99',
      digits: 3,
      summary: true,
    },
    {
      label: `server CPU %, echo ${p.loadedSessions} sessions`,
      value: (t) => t.metrics.echo_loaded?.server_cpu_pct,
      digits: 0,
    },
  ];
  for (const n of p.observers) {
    const k = String(n);
    out.push(
      {
        label: `MB/s per observer, ${n} obs${n === 1 && p.streamRounds > 1 ? `, median of ${p.streamRounds}` : ''}`,
        value: (t) => t.metrics.throughput[k]?.per_observer_mb_s,
        ratio: `throughput_${n}_per_observer`,
        ...(n === 1 ? { paired: 'throughput_1_per_observer_paired', summary: true as const } : {}),
        digits: 1,
      },
      {
        label: `MB/s total, ${n} obs`,
        value: (t) => t.metrics.throughput[k]?.total_mb_s,
        ratio: `throughput_${n}_total`,
        digits: 1,
      },
      { label: `server CPU %, ${n} obs`, value: (t) => t.metrics.throughput[k]?.server_cpu_pct, digits: 0 },
      { label: `lagged observers, ${n} obs`, value: (t) => t.metrics.throughput[k]?.lagged_observers, digits: 0 },
    );
    if (n === 1) {
      out.push(
        {
          label: 'server CPU ms per MB, 1 obs',
          value: (t) => cpuMsPerMb(t.metrics.throughput[k]),
          digits: 1,
          summary: true,
        },
        { label: 'machine CPU %, 1 obs', value: (t) => t.metrics.throughput[k]?.machine_cpu_pct, digits: 0 },
      );
    }
  }
  const big = `${p.bigFanout.observers} obs x ${Math.round((p.bigFanout.floodBytes * 4) / 3 / 1e6)} MB`;
  out.push(
    {
      label: `MB/s total, ${big}${p.bigFanout.rounds > 1 ? `, median of ${p.bigFanout.rounds}` : ''}`,
      value: (t) => t.metrics.fanout_big?.total_mb_s,
      ratio: 'fanout_big_total',
      paired: 'fanout_big_total_paired',
      digits: 1,
      summary: true,
    },
    {
      label: `lagged / incomplete, ${big}`,
      value: (t) => lagIncomplete(t.metrics.fanout_big),
      digits: 2,
      summary: true,
    },
    { label: `machine CPU %, ${big}`, value: (t) => t.metrics.fanout_big?.machine_cpu_pct, digits: 0 },
    // The readers share one event loop: near 100 % busy, they set the round's pace, not the server.
    { label: `reader loop busy %, ${big}`, value: (t) => t.metrics.fanout_big?.client_loop_pct, digits: 0 },
    { label: `reader GC ms, ${big}`, value: (t) => t.metrics.fanout_big?.client_gc_ms, digits: 0 },
  );
  const attach = (key: string, label: string, summary = false): Row => ({
    label,
    value: (t) => t.metrics.attach[key]?.p50_ms,
    digits: 2,
    ...(summary ? { summary: true as const } : {}),
  });
  out.push(
    attach('keyframe_json', 'attach->keyframe p50 ms, JSON'),
    attach('keyframe_binary', 'attach->keyframe p50 ms, binary', true),
    attach('replay_json', `attach+replay p50 ms, JSON`),
    attach('replay_binary', `attach+replay p50 ms, binary`),
    {
      label: 'replayed history frames',
      value: (t) => t.metrics.attach['replay_binary']?.history_frames,
      digits: 0,
    },
    {
      label: `idle memory KiB/session (${p.idleSessions})`,
      value: (t) => t.metrics.idle_memory?.per_session_kb,
      ratio: 'idle_memory_per_session',
      digits: 0,
      summary: true,
    },
  );
  return out;
}

/** lagged.incomplete as one number (3.01 = 3 lagged, 1 incomplete): both must be read off one cell. */
function lagIncomplete(f: FanoutMetric | undefined): number | undefined {
  return f ? f.lagged_observers + f.incomplete_observers / 100 : undefined;
}

const BASELINES = new Set(['raw-node-pty', 'uws-floor', 'relay-floor', 'wetty']);

export function cell(
  t: TargetResult,
  row: Row,
  ratios: Ratios | undefined,
  toWetty: Ratios | undefined,
  toRelay: Ratios | undefined,
): string {
  if (t.status === 'skipped') return '-';
  const v = row.value(t);
  if (v === undefined || !Number.isFinite(v)) return BASELINES.has(t.name) ? 'n/a' : 'failed';
  const r = row.ratio && ratios ? ratios[row.ratio] : undefined;
  const paired = row.paired && ratios ? ratios[row.paired] : undefined;
  const w = row.ratio && toWetty ? toWetty[row.ratio] : undefined;
  const f = row.ratio && toRelay ? toRelay[row.ratio] : undefined;
  const parts = [
    ...(r !== undefined ? [`${r}x`] : []),
    ...(paired !== undefined ? [`${paired}x paired`] : []),
    ...(f !== undefined ? [`${f}x relay`] : []),
    ...(w !== undefined ? [`${w}x wetty`] : []),
  ];
  return v.toFixed(row.digits) + (parts.length ? ` (${parts.join(', ')})` : '');
}

export function renderTable(
  p: Profile,
  targets: TargetResult[],
  ratios: Record<string, Ratios>,
  toWetty: Record<string, Ratios> = {},
  toRelay: Record<string, Ratios> = {},
): string {
  const header = ['metric', ...targets.map((t) => t.name)];
  const body = rows(p).map((row) => [
    row.label,
    ...targets.map((t) => cell(t, row, ratios[t.name], toWetty[t.name], toRelay[t.name])),
  ]);
  const status = ['status', ...targets.map((t) => t.status)];
  const all = [header, status, ...body];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const notes = targets
    .filter((t) => t.reason || Object.keys(t.errors).length)
    .flatMap((t) => [
      ...(t.reason ? [`${t.name}: ${t.status}: ${t.reason}`] : []),
      ...Object.entries(t.errors).map(([k, e]) => `${t.name} ${k}: ${e}`),
    ]);
  return [line(header), rule, line(status), ...body.map(line), rule, ...notes].join('\n');
}
