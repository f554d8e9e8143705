/**
 * A real Prometheus (Debian's `prometheus` package, listed in .ci/apt-packages.txt) scrapes a
 * running node's /metrics every second over loopback; its HTTP API then answers
 * `ptyws_connections` and every recording-rule expression of deploy/prometheus/rules on the
 * scraped data. Skipped only when /usr/bin/prometheus is absent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as YAML from 'yaml';
import { SUBPROTOCOL_JSON } from '@pty-ws/protocol';
import { TestContext, freePort, joinSession, waitUntil } from '@pty-ws/testkit';
import { httpGet, shell } from './support';

const PROMETHEUS = '/usr/bin/prometheus';
const RULES = path.resolve(__dirname, '../../deploy/prometheus/rules/ptyws.rules.yml');
const available = fs.existsSync(PROMETHEUS);
if (!available) {
  console.warn(
    'prometheus not found: skipping. Install it with `apt-get install -y prometheus` (.ci/apt-packages.txt).',
  );
}
const describeIfPrometheus = available ? describe : describe.skip;

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}
interface QueryResponse {
  status: string;
  error?: string;
  data?: { resultType: string; result: Sample[] };
}

describeIfPrometheus('Prometheus scraping a node', () => {
  let ctx: TestContext;
  let prometheus: ChildProcess | undefined;
  let dir: string;
  let promUrl: string;
  let log = '';

  const query = async (expr: string): Promise<QueryResponse> => {
    const res = await httpGet(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
    return JSON.parse(res.text) as QueryResponse;
  };

  beforeAll(async () => {
    ctx = await TestContext.start();
    const target = new URL(ctx.server.httpUrl).host;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptyws-prom-'));
    fs.writeFileSync(
      path.join(dir, 'prometheus.yml'),
      YAML.stringify({
        global: { scrape_interval: '1s', evaluation_interval: '1s', scrape_timeout: '1s' },
        scrape_configs: [{ job_name: 'ptyws-edge', metrics_path: '/metrics', static_configs: [{ targets: [target] }] }],
      }),
    );
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.stdout?.on('data', (c: Buffer) => (log += c.toString()));
    prometheus.stderr?.on('data', (c: Buffer) => (log += c.toString()));
    await waitUntil(
      async () => {
        if (prometheus?.exitCode !== null) throw new Error(`prometheus exited ${prometheus?.exitCode}: ${log}`);
        return (await httpGet(`${promUrl}/-/ready`).catch(() => ({ status: 0 }))).status === 200;
      },
      15_000,
      'prometheus to be ready',
      100,
    );
  }, 30_000);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGTERM');
      const timer = setTimeout(() => prometheus?.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await ctx?.dispose();
  });

  it('scrapes ptyws_connections and the recording-rule expressions evaluate on it', async () => {
    const sessionId = (await ctx.createSession(shell())).session_id;
    const controller = await ctx.attach(sessionId);
    await joinSession(controller, { role: 'controller' });

    // Wait for a scrape that saw the controller.
    const connections = await waitUntil(
      async () => {
        const r = await query('ptyws_connections');
        const hit = r.data?.result.find((s) => s.metric['role'] === 'controller');
        return hit && hit.value[1] === '1' ? r : undefined;
      },
      15_000,
      'a scrape with the controller connection',
      250,
    );
    expect(connections.status).toBe('success');
    const controllerSeries = connections.data!.result.find(
      (s) => s.metric['role'] === 'controller' && s.metric['subprotocol'] === SUBPROTOCOL_JSON,
    );
    expect(controllerSeries?.metric).toMatchObject({ __name__: 'ptyws_connections', job: 'ptyws-edge' });

    const up = await query('up{job="ptyws-edge"}');
    expect(up.data?.result.map((s) => s.value[1])).toEqual(['1']);

    // The deploy rules' expressions run unchanged against what the node exports.
    const rules = YAML.parse(fs.readFileSync(RULES, 'utf8')) as {
      groups: { rules: { record?: string; expr: string }[] }[];
    };
    const recording = rules.groups.flatMap((g) => g.rules).filter((r) => r.record && !r.expr.includes('ptyws:'));
    expect(recording.length).toBeGreaterThan(5);
    for (const rule of recording) {
      const r = await query(rule.expr);
      expect(`${rule.record}: ${r.status} ${r.error ?? ''}`).toBe(`${rule.record}: success `);
    }
    const byRole = await query('sum by (role) (ptyws_connections)');
    expect(byRole.data?.result).toContainEqual(
      expect.objectContaining({ metric: { role: 'controller' }, value: [expect.any(Number), '1'] }),
    );
    const sessions = await query('sum by (state, backend) (ptyws_sessions)');
    expect(sessions.data?.result).toContainEqual(
      expect.objectContaining({ metric: { state: 'running', backend: 'native' }, value: [expect.any(Number), '1'] }),
    );
    const lag = await query('nodejs_eventloop_lag_seconds');
    expect(lag.data?.result.length).toBe(1);
  }, 30_000);
});
