/**
 * `npm run loadtest` and `npm run loadtest:report`: every scenario runs briefly (3 connections,
 * 2 s) against a server of this test, one also against a server the driver starts itself; the
 * JSON must be well formed and plausible, and the report must hold the expected series. The k6
 * scripts' thresholds and the driver's table must be the same. No timing is asserted.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { startTestServer, type TestServer } from '@pty-ws/testkit';
import { parseResult, type LoadResult } from '../../loadtest/src/load/results';
import { call, type Endpoint } from '../../loadtest/src/rest';
import { lineChart } from '../../loadtest/src/load/svg-chart';
import { SCENARIOS, THRESHOLDS, type ScenarioName } from '../../loadtest/src/load/thresholds';

const ROOT = join(__dirname, '..', '..');
const DRIVER = join(ROOT, 'loadtest', 'dist', 'loadtest.js');
const REPORT = join(ROOT, 'loadtest', 'dist', 'report.js');

function node(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd: ROOT, timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** `thresholds: {…}` of a k6 script, as metric → expressions. */
function k6Thresholds(name: string): Record<string, string[]> {
  const file = join(ROOT, 'loadtest', 'k6', `${name}.ts`);
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2020, true);
  let found: Record<string, string[]> | undefined;
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && n.name.text === 'thresholds') {
      const obj = n.initializer as ts.ObjectLiteralExpression;
      found = {};
      for (const p of obj.properties) {
        const pa = p as ts.PropertyAssignment;
        const list = (pa.initializer as ts.ArrayLiteralExpression).elements.map((e) => (e as ts.StringLiteral).text);
        found[(pa.name as ts.Identifier).text] = list;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  if (!found) throw new Error(`${name}: no thresholds`);
  return found;
}

/** What every result must satisfy, whatever the machine's speed. */
function expectPlausible(r: LoadResult, scenario: ScenarioName, code: number): void {
  expect(r.scenario).toBe(scenario);
  expect(r.connections).toBe(3);
  expect(code).toBe(r.passed ? 0 : 1); // exit status follows the thresholds
  expect(r.thresholds.map((t) => [t.metric, t.expression])).toEqual(
    Object.entries(THRESHOLDS[scenario]).flatMap(([m, exprs]) => exprs.map((e) => [m, e])),
  );
  for (const t of r.thresholds) if (t.actual === null) expect(t.ok).toBe(false);
  for (const [name, m] of Object.entries(r.metrics)) {
    if (m.type === 'trend' && m.count > 0) {
      const order = [m.min, m.med, m.p90, m.p95, m.p99, m.max] as number[];
      for (let i = 1; i < order.length; i++) expect(order[i]).toBeGreaterThanOrEqual(order[i - 1] as number);
      expect(m.min).toBeGreaterThanOrEqual(0);
    }
    if (m.type === 'rate' && m.rate !== undefined) {
      expect(m.rate).toBeGreaterThanOrEqual(0);
      expect(m.rate).toBeLessThanOrEqual(1);
    }
    if (m.type === 'counter') {
      // The time series adds up to the total.
      const perSecond = r.series.reduce((s, p) => s + ((p[`${name}_per_s`] as number | null) ?? 0), 0);
      expect(perSecond).toBe(m.count);
    }
  }
  expect(r.series.length).toBeGreaterThan(0);
  r.series.forEach((p, i) => expect(p.t).toBe(i));
}

describe('npm run loadtest (Node driver of the k6 scenarios)', () => {
  let server: TestServer;
  let dir: string;
  const results = new Map<ScenarioName, LoadResult>();

  beforeAll(async () => {
    expect(existsSync(DRIVER)).toBe(true); // built by `npm test`
    dir = mkdtempSync(join(tmpdir(), 'ptyws-loadtest-'));
    server = await startTestServer({
      maxObservers: 1000,
      connRatePerPrincipal: 100_000,
      connBurstPerPrincipal: 100_000,
      connRatePerInstance: 100_000,
      connBurstPerInstance: 100_000,
      apiRatePerPrincipal: 100_000,
      apiBurstPerPrincipal: 100_000,
    });
  });

  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(SCENARIOS)('uses the thresholds of k6/%s.ts', (name) => {
    expect(THRESHOLDS[name]).toEqual(k6Thresholds(name));
  });

  it.each(SCENARIOS)(
    '%s: a short run against a given URL writes plausible JSON',
    async (scenario) => {
      const out = join(dir, `${scenario}.json`);
      const res = await node(DRIVER, [
        ...['--scenario', scenario, '--connections', '3', '--duration', '2'],
        ...['--url', server.httpUrl, '--token', server.adminToken, '--instance', server.instanceId, '--out', out],
      ]);
      if (!existsSync(out)) throw new Error(`no results (exit ${res.code}): ${res.stderr.slice(-2000)}`);
      const r = parseResult(readFileSync(out, 'utf8'), out);
      expectPlausible(r, scenario, res.code);
      expect(r.error).toBeUndefined();
      expect(res.stderr).toMatch(/\[\d+s\] /); // progress lines
      expect(res.stdout).toMatch(r.passed ? /passed: results in/ : /FAILED: results in/);
      results.set(scenario, r);
      // Each scenario measured what it is about.
      const main: Record<ScenarioName, string> = {
        'attach-storm': 'ptyws_attach_keyframe_ms',
        'typing-latency': 'ptyws_echo_ms',
        'observer-fanout': 'ptyws_fanout_bytes',
        'reconnect-storm': 'ptyws_replay_ok',
        'token-mix': 'ptyws_auth_as_expected',
      };
      expect(r.metrics[main[scenario]]?.count).toBeGreaterThan(0);
      if (scenario === 'token-mix') expect(r.metrics['ptyws_auth_as_expected']?.rate).toBe(1);
      // Every re-join resumed at last seen + 1 (replay-check.ts) on a single-node server.
      if (scenario === 'reconnect-storm') expect(r.metrics['ptyws_replay_ok']?.rate).toBe(1);
      // The run removed what it made: every session closed, every minted token revoked.
      const ep: Endpoint = {
        httpUrl: server.httpUrl,
        wsUrl: server.wsUrl,
        instanceId: server.instanceId,
        token: server.adminToken,
      };
      const sessions = (await call(ep, 'GET', '/api/v1/sessions')).body as { sessions: { closed_at: unknown }[] };
      expect(sessions.sessions.filter((x) => x.closed_at === null)).toEqual([]);
      const listed = (await call(ep, 'GET', '/api/v1/tokens')).body as {
        tokens: { created_by: string; revoked_at: unknown }[];
      };
      const minted = listed.tokens.filter((x) => x.created_by !== 'startup'); // not the server's admin token
      if (scenario === 'token-mix') expect(minted.length).toBe(3);
      expect(minted.filter((x) => x.revoked_at === null)).toEqual([]);
      // Each threshold's count guard counted what it guards.
      for (const t of r.thresholds.filter((x) => x.metric.startsWith('ptyws_samples{')))
        expect([t.metric, t.ok]).toEqual([t.metric, true]);
      if (scenario === 'observer-fanout') expect(r.metrics['ptyws_lagged']?.type).toBe('counter');
    },
    100_000,
  );

  it('starts a server itself without --url, and refuses bad usage with exit 2', async () => {
    const out = join(dir, 'self.json');
    const res = await node(DRIVER, [
      '--scenario',
      'typing-latency',
      '--connections',
      '3',
      '--duration',
      '2',
      '--out',
      out,
    ]);
    if (!existsSync(out)) throw new Error(`no results (exit ${res.code}): ${res.stderr.slice(-2000)}`);
    const r = parseResult(readFileSync(out, 'utf8'), out);
    expectPlausible(r, 'typing-latency', res.code);
    expect(r.target).toMatch(/started by the driver/);
    expect((await node(DRIVER, ['--scenario', 'nope'])).code).toBe(2);
    expect((await node(DRIVER, ['--scenario', 'token-mix', '--connections', '100000'])).code).toBe(2);
  }, 100_000);

  it('npm run loadtest:report writes a Markdown table and one SVG chart per run', async () => {
    const files = SCENARIOS.map((s) => join(dir, `${s}.json`)).filter((f) => existsSync(f));
    expect(files).toHaveLength(SCENARIOS.length);
    const outDir = join(dir, 'report');
    const res = await node(REPORT, [...files, '--out-dir', outDir]);
    expect(res.code).toBe(0);
    const md = readFileSync(join(outDir, 'report.md'), 'utf8');
    const rows = md
      .split('\n')
      .filter((l) => /^\| (attach-storm|typing-latency|observer-fanout|reconnect-storm|token-mix) \|/.test(l));
    expect(rows).toHaveLength(SCENARIOS.length);
    for (const row of rows) expect(row.split('|').length).toBe(11); // 9 cells
    const svgs = readdirSync(outDir).filter((f) => f.endsWith('.svg'));
    expect(svgs).toHaveLength(SCENARIOS.length);
    for (const scenario of SCENARIOS) {
      const svg = readFileSync(join(outDir, `${scenario}.svg`), 'utf8');
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
      expect(md).toContain(`](${scenario}.svg)`);
      const series = new Set([...svg.matchAll(/data-series="([^"]+)"/g)].map((m) => m[1]));
      const r = results.get(scenario)!;
      const hasLatency = scenario !== 'observer-fanout';
      expect(series).toEqual(new Set(hasLatency ? ['p50', 'p95', 'p99', 'throughput'] : ['throughput']));
      // Every polyline point lies inside the 800-wide canvas.
      for (const m of svg.matchAll(/points="([^"]+)"/g)) {
        for (const pt of (m[1] as string).split(' ')) {
          const [x, y] = pt.split(',').map(Number) as [number, number];
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(800);
          expect(Number.isFinite(y)).toBe(true);
        }
      }
      expect(r.series.length).toBeGreaterThan(0);
    }
  }, 30_000);

  it('the chart breaks lines at seconds without samples and scales to the largest value', () => {
    const svg = lineChart('t', [
      {
        title: 'latency',
        unit: 'ms',
        lines: [
          {
            name: 'p50',
            color: '#000',
            points: [
              { x: 0, y: 1 },
              { x: 1, y: 4 },
              { x: 2, y: null },
              { x: 3, y: 2 },
              { x: 4, y: 3 },
            ],
          },
        ],
      },
    ]);
    const polylines = [...svg.matchAll(/<polyline data-series="p50" points="([^"]+)"/g)].map((m) => m[1]!.split(' '));
    expect(polylines.map((p) => p.length)).toEqual([2, 2]);
    expect(svg).toContain('>5<'); // y axis up to 5 (the nice maximum above 4)
  });
});
