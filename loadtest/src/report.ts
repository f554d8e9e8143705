/**
 * `npm run loadtest:report [results.json…] [--out-dir DIR]`: reads `npm run loadtest` results
 * (default: every JSON in loadtest-results/) and writes `report.md` (one table row per run, then
 * its thresholds) and one SVG per run (latency percentiles and throughput over time).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { latencyMetric, parseResult, throughputSeries, type LoadResult } from './load/results';
import { lineChart, type Panel } from './load/svg-chart';
import { REPO_ROOT } from './targets/embedded';

const COLORS = { p50: '#1f77b4', p95: '#ff7f0e', p99: '#d62728', throughput: '#2ca02c' };

function chart(r: LoadResult): string {
  const lat = latencyMetric(r);
  const tp = throughputSeries(r);
  const at = (key: string) =>
    r.series.map((p) => ({ x: p.t, y: typeof p[key] === 'number' ? (p[key] as number) : null }));
  const panels: Panel[] = [
    {
      title: lat ? `${lat}: percentiles per second` : 'latency: this scenario has no latency metric',
      unit: 'ms',
      lines: lat
        ? (['p50', 'p95', 'p99'] as const).map((q) => ({ name: q, color: COLORS[q], points: at(`${lat}_${q}`) }))
        : [],
    },
    {
      title: tp ? `throughput: ${tp.label}` : 'throughput',
      unit: tp?.key.includes('bytes') ? 'bytes/s' : 'per second',
      lines: tp ? [{ name: 'throughput', color: COLORS.throughput, points: at(tp.key) }] : [],
    },
  ];
  return lineChart(`${r.scenario} — ${r.connections} connections, ${r.duration_s} s (${r.started_at})`, panels);
}

function cell(r: LoadResult, metric: string | undefined): string {
  const m = metric ? r.metrics[metric] : undefined;
  if (!m || m.count === 0) return '–';
  if (m.type === 'trend') return `${m.med} / ${m.p95} / ${m.p99}`;
  return m.type === 'rate' ? `${m.rate}` : `${m.count} (${m.rate}/s)`;
}

export function markdown(results: Array<{ r: LoadResult; svg: string }>): string {
  const lines = [
    '# pty-ws load test report',
    '',
    '| scenario | started | connections | duration s | latency metric | p50 / p95 / p99 ms | throughput | checks | thresholds |',
    '| --- | --- | ---: | ---: | --- | --- | --- | ---: | --- |',
  ];
  for (const { r } of results) {
    const lat = latencyMetric(r);
    const tp = throughputSeries(r);
    const tpMetric = tp?.key.replace(/_per_s$/, '');
    const tpCell =
      tpMetric && r.metrics[tpMetric]?.type === 'counter'
        ? `${r.metrics[tpMetric]?.rate}/s`
        : tpMetric
          ? `${Math.round(((r.metrics[tpMetric]?.count ?? 0) / Math.max(r.elapsed_s, 0.001)) * 10) / 10}/s`
          : '–';
    const failed = r.thresholds.filter((t) => !t.ok).length;
    lines.push(
      `| ${r.scenario} | ${r.started_at} | ${r.connections} | ${r.duration_s} | ${lat ?? '–'} | ${cell(r, lat)} | ${tpCell} | ${cell(r, 'checks')} | ${failed === 0 && !r.error ? 'passed' : `**${failed} failed**`} |`,
    );
  }
  for (const { r, svg } of results) {
    lines.push(
      '',
      `## ${r.scenario} (${r.started_at})`,
      '',
      `Target: ${r.target}.${r.error ? ` Error: ${r.error}.` : ''}`,
      '',
    );
    lines.push('| metric | threshold | actual | result |', '| --- | --- | ---: | --- |');
    for (const t of r.thresholds)
      lines.push(`| ${t.metric} | \`${t.expression}\` | ${t.actual ?? 'no samples'} | ${t.ok ? 'ok' : '**FAIL**'} |`);
    lines.push('', `![${r.scenario} over time](${svg})`);
  }
  return lines.join('\n') + '\n';
}

function main(): void {
  const args = process.argv.slice(2);
  let outDir = join(REPO_ROOT, 'loadtest-results', 'report');
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out-dir') outDir = args[++i] ?? outDir;
    else files.push(args[i] as string);
  }
  if (files.length === 0) {
    const dir = join(REPO_ROOT, 'loadtest-results');
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    } catch {
      /* no results yet */
    }
    files.push(...names.sort().map((n) => join(dir, n)));
  }
  if (files.length === 0) {
    process.stderr.write('loadtest:report: no results (run npm run loadtest first, or name result files)\n');
    process.exit(2);
  }
  mkdirSync(outDir, { recursive: true });
  const results = files.map((f) => {
    const r = parseResult(readFileSync(f, 'utf8'), f);
    const svg = `${basename(f, '.json')}.svg`;
    writeFileSync(join(outDir, svg), chart(r));
    return { r, svg };
  });
  const md = join(outDir, 'report.md');
  writeFileSync(md, markdown(results));
  process.stdout.write(
    `report: ${md} (${results.length} run${results.length === 1 ? '' : 's'}, ${results.length} SVG)\n`,
  );
}

main();
