/**
 * deploy/prometheus and deploy/grafana: promtool checks the config and rules and runs the rule unit
 * tests; every PromQL expression (rules and dashboard) parses with the Prometheus project's own
 * PromQL grammar (@prometheus-io/lezer-promql) and selects only metrics from the contract (plus
 * up, process_*, nodejs_* and our recording rules).
 *
 * promtool comes from Debian's `prometheus` package (listed in .ci/apt-packages.txt); without it
 * the promtool tests are skipped with a message, everything else still runs.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as YAML from 'yaml';
import { isKnownSeries, METRIC_LABELS, METRICS } from './lib/contract';
import { parsePromQL } from './lib/promql';

const ROOT = path.resolve(__dirname, '../..');
const PROM = path.join(ROOT, 'deploy/prometheus');
const RULES_FILE = path.join(PROM, 'rules/ptyws.rules.yml');
const DASHBOARD = path.join(ROOT, 'deploy/grafana/dashboards/ptyws.json');
type Obj = Record<string, any>;

const PROMTOOL =
  ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => fs.existsSync(p)) ??
  (spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).stdout.trim() || undefined);
const promtoolTest = PROMTOOL ? test : test.skip;
if (!PROMTOOL) {
  console.warn(
    'promtool not found: skipping promtool checks. Install it with `apt-get install -y prometheus` ' +
      '(listed in .ci/apt-packages.txt).',
  );
}

function promtool(...args: string[]): { status: number | null; out: string } {
  const r = spawnSync(PROMTOOL!, args, { encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const rules = YAML.parse(fs.readFileSync(RULES_FILE, 'utf8'));
const allRules: Obj[] = rules.groups.flatMap((g: Obj) => g.rules);
const recorded = new Set<string>(allRules.filter((r) => r.record).map((r) => r.record));
const alerts = allRules.filter((r) => r.alert);
const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8'));

/** Every panel (rows may nest panels). */
function panels(list: Obj[]): Obj[] {
  return list.flatMap((p) => [p, ...panels(p.panels ?? [])]);
}
const dashboardExprs: { where: string; expr: string }[] = panels(dashboard.panels).flatMap((p) =>
  ((p.targets ?? []) as Obj[])
    .filter((t) => t.expr)
    .map((t) => ({ where: `panel "${p.title}" ${t.refId}`, expr: t.expr })),
);
for (const v of dashboard.templating?.list ?? []) {
  const q = typeof v.query === 'string' ? v.query : v.query?.query;
  const m = /^label_values\((.*),\s*\w+\)$/.exec(q ?? '');
  if (m) dashboardExprs.push({ where: `variable ${v.name}`, expr: m[1]! });
}

/** Grafana's variables replaced by values PromQL accepts. */
function grafanaToPromQL(expr: string): string {
  return expr.replace(/\$__rate_interval|\$__interval|\$__range/g, '5m').replace(/\$\{?(\w+)\}?/g, '.*');
}

promtoolTest('promtool check config deploy/prometheus/prometheus.yml (and its rule files)', () => {
  const r = promtool('check', 'config', path.join(PROM, 'prometheus.yml'));
  expect(r.out).toMatch(/SUCCESS/);
  expect(r.status).toBe(0);
});

promtoolTest('promtool check rules', () => {
  const r = promtool('check', 'rules', RULES_FILE);
  expect(r.out).toMatch(/SUCCESS: \d+ rules found/);
  expect(r.status).toBe(0);
});

promtoolTest('promtool test rules: the alerts fire (and stay quiet) as intended', () => {
  const r = promtool('test', 'rules', path.join(PROM, 'tests/ptyws.rules.test.yml'));
  if (r.status !== 0) console.error(r.out);
  expect(r.status).toBe(0);
});

promtoolTest('promtool accepts every dashboard expression', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptyws-dash-'));
  try {
    const file = path.join(dir, 'dashboard-exprs.yml');
    const group = {
      name: 'dashboard',
      rules: dashboardExprs.map((e, i) => ({ record: `dashboard:expr_${i}`, expr: grafanaToPromQL(e.expr) })),
    };
    fs.writeFileSync(file, YAML.stringify({ groups: [group] }));
    const r = promtool('check', 'rules', file);
    if (r.status !== 0) console.error(r.out);
    expect(r.status).toBe(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('rules and dashboard select only contract metrics (PromQL parsed, not grepped)', () => {
  const problems: string[] = [];
  const check = (where: string, expr: string) => {
    const parsed = parsePromQL(grafanaToPromQL(expr));
    if (parsed.errors.length) problems.push(`${where}: syntax error at ${parsed.errors.join(', ')} in ${expr}`);
    for (const s of parsed.selectors) {
      if (!isKnownSeries(s.metric, recorded)) problems.push(`${where}: unknown metric ${s.metric}`);
      const base = s.metric.replace(/_(bucket|sum|count)$/, '');
      const known = METRIC_LABELS[s.metric] ?? METRIC_LABELS[base];
      for (const l of s.labels) {
        if (known && !['job', 'instance', 'le', ...known].includes(l))
          problems.push(`${where}: ${s.metric} has no label ${l}`);
      }
    }
    for (const g of parsed.groupingLabels) {
      if (!['job', 'instance', 'le', ...Object.values(METRIC_LABELS).flat()].includes(g))
        problems.push(`${where}: grouping by unknown label ${g}`);
    }
  };
  for (const r of allRules) check(`rule ${r.record ?? r.alert}`, r.expr);
  for (const e of dashboardExprs) check(`dashboard ${e.where}`, e.expr);
  expect(problems).toEqual([]);
  expect(dashboardExprs.length).toBeGreaterThan(10);
});

test('the metric check really rejects an unknown metric and a syntax error', () => {
  const p = parsePromQL('sum(rate(ptyws_frams_out_total[5m])) / on(instance) group_left up');
  expect(p.selectors.map((s) => s.metric)).toEqual(['ptyws_frams_out_total', 'up']);
  expect(isKnownSeries('ptyws_frams_out_total', recorded)).toBe(false);
  expect(isKnownSeries('ptyws_echo_latency_seconds_bucket', recorded)).toBe(true);
  expect(isKnownSeries('ptyws_connections_bucket', recorded)).toBe(false);
  expect(parsePromQL('sum(rate(x[5m])').errors.length).toBeGreaterThan(0);
});

test('alerts cover the required conditions, with severity and annotations', () => {
  /** Metrics an expression depends on, through recording rules. */
  const depends = (expr: string, seen = new Set<string>()): Set<string> => {
    for (const s of parsePromQL(expr).selectors) {
      if (seen.has(s.metric)) continue;
      seen.add(s.metric);
      const rec = allRules.find((r) => r.record === s.metric);
      if (rec) depends(rec.expr, seen);
    }
    return seen;
  };
  const covering = (metric: string, matcher?: RegExp) =>
    alerts.filter((a) => depends(a.expr).has(metric) && (!matcher || matcher.test(a.expr)));
  expect(covering('up', /job="ptyws-edge"/).length).toBeGreaterThan(0); // edge down
  expect(covering('ptyws_replay_out_of_range_total').length).toBeGreaterThan(0);
  expect(covering('ptyws_nats_consumer_lag').length).toBeGreaterThan(0);
  expect(covering('ptyws_echo_latency_seconds_bucket').length).toBeGreaterThan(0);
  expect(alerts.find((a) => depends(a.expr).has('ptyws:echo_latency_seconds:p99_5m'))).toBeDefined();
  expect(allRules.find((r) => r.record === 'ptyws:echo_latency_seconds:p99_5m')!.expr).toMatch(
    /histogram_quantile\(0\.99,/,
  );
  expect(covering('ptyws_auth_failures_total').length).toBeGreaterThan(0);
  for (const a of alerts) {
    expect([a.alert, a.labels?.severity]).toEqual([a.alert, expect.stringMatching(/^(critical|warning|info)$/)]);
    expect(a.annotations?.summary).toBeTruthy();
    expect(a.annotations?.description).toBeTruthy();
    expect(a.alert).toMatch(/^PtyWs[A-Za-z0-9]+$/);
  }
  for (const r of allRules.filter((x) => x.record)) expect(r.record).toMatch(/^ptyws:[a-z0-9_]+:[a-z0-9_]+$/);
  // Counters are only used through rate()/increase(); histograms through their _bucket series.
  for (const r of allRules) {
    for (const [m, type] of Object.entries(METRICS)) {
      if (type === 'counter' && new RegExp(`\\b${m}\\b`).test(r.expr))
        expect([r.record ?? r.alert, r.expr]).toEqual([
          r.record ?? r.alert,
          expect.stringMatching(new RegExp(`(rate|increase)\\(${m}\\b`)),
        ]);
    }
  }
});

test('job names in rules exist in the compose scrape config and as Kubernetes ServiceMonitor services', () => {
  const prom = YAML.parse(fs.readFileSync(path.join(PROM, 'prometheus.yml'), 'utf8'));
  const jobs = new Set((prom.scrape_configs as Obj[]).map((j) => j.job_name));
  const monitoring = fs.readFileSync(path.join(ROOT, 'deploy/kubernetes/base/monitoring.yaml'), 'utf8');
  const monitored = new Set(
    YAML.parseAllDocuments(monitoring)
      .map((d) => d.toJS())
      .filter((o) => o?.kind === 'ServiceMonitor')
      .map((o) => o.metadata.name),
  );
  const used = new Set<string>();
  for (const r of allRules) for (const m of (r.expr as string).matchAll(/job=~?"([^"]+)"/g)) used.add(m[1]!);
  for (const e of dashboardExprs) for (const m of e.expr.matchAll(/job="([^"]+)"/g)) used.add(m[1]!);
  expect(used.size).toBeGreaterThan(0);
  for (const job of used) {
    expect([job, jobs.has(job)]).toEqual([job, true]);
    expect([job, monitored.has(job)]).toEqual([job, true]);
  }
  const globs: string[] = prom.rule_files;
  expect(globs.every((g) => !path.isAbsolute(g))).toBe(true); // the same mount works in compose and here
});

test('Grafana dashboard: valid JSON model, unique ids, templated data source, panels on the grid', () => {
  expect(dashboard.uid).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
  expect(dashboard.title).toBeTruthy();
  const all = panels(dashboard.panels);
  const ids = all.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  const dsVar = (dashboard.templating.list as Obj[]).find((v) => v.type === 'datasource')!;
  expect(dsVar?.query).toBe('prometheus');
  for (const p of all) {
    expect(p.gridPos.x + p.gridPos.w).toBeLessThanOrEqual(24);
    if (p.type === 'row') continue;
    expect([p.title, p.datasource]).toEqual([p.title, { type: 'prometheus', uid: `\${${dsVar.name}}` }]);
    expect(p.targets.length).toBeGreaterThan(0);
    for (const t of p.targets) expect(t.refId).toMatch(/^[A-Z]$/);
  }
  // Every contract metric appears on the dashboard.
  const text = dashboardExprs.map((e) => e.expr).join('\n');
  const missing = Object.keys(METRICS).filter((m) => !text.includes(m) && !text.includes(`${m}_bucket`));
  // The replay out-of-range ratio is shown through its recording rule.
  expect(missing).toEqual([]);
});
