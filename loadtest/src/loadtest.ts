/**
 * `npm run loadtest -- --scenario <name> [--connections N] [--duration S] [--rate R] [--url URL --token T]`:
 * the k6 scenarios (loadtest/k6) run by Node, with the same metric names and thresholds. Without
 * --url it starts the single-node service itself (a child process, connection rate limits
 * lifted). Prints progress to stderr, writes JSON results with a per-second time series, and
 * exits 1 when a threshold fails (2 on bad usage or a run that could not start).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { killAllChildren, killChildrenOnExit } from './children';
import { Recorder } from './load/recorder';
import type { Scenario, ScenarioContext } from './load/scenario';
import { attachStorm } from './load/scenarios/attach-storm';
import { observerFanout } from './load/scenarios/observer-fanout';
import { reconnectStorm } from './load/scenarios/reconnect-storm';
import { tokenMix } from './load/scenarios/token-mix';
import { typingLatency } from './load/scenarios/typing-latency';
import { SCENARIOS, THRESHOLDS, type ScenarioName } from './load/thresholds';
import { call, mapLimit, type Endpoint } from './rest';
import type { Service } from './service';
import { REPO_ROOT, startEmbedded } from './targets/embedded';

const RUN: Record<ScenarioName, Scenario> = {
  'attach-storm': attachStorm,
  'typing-latency': typingLatency,
  'observer-fanout': observerFanout,
  'reconnect-storm': reconnectStorm,
  'token-mix': tokenMix,
};

/** The k6 scripts' VU counts; --connections overrides. */
const DEFAULT_CONNECTIONS: Record<ScenarioName, number> = {
  'attach-storm': 200,
  'typing-latency': 50,
  'observer-fanout': 100,
  'reconnect-storm': 100,
  'token-mix': 100,
};
const MAX_CONNECTIONS = 1000;
const MAX_DURATION_S = 600;
/** token-mix's arrivals a second (the k6 script's RATE default); --rate overrides. */
const DEFAULT_RATE = 50;
const MAX_RATE = 1000;

interface Options {
  scenario: ScenarioName;
  connections: number;
  durationS: number;
  rate: number;
  url?: string;
  token: string;
  instance: string;
  out?: string;
  outDir: string;
}

function usage(msg: string): never {
  process.stderr.write(
    `loadtest: ${msg}\nusage: npm run loadtest -- --scenario <${SCENARIOS.join('|')}> [--connections N] [--duration S] [--rate R] [--url http://host:port --token T --instance I] [--out file.json | --out-dir DIR]\n`,
  );
  process.exit(2);
}

function parse(argv: string[]): Options {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i] as string;
    if (!k.startsWith('--')) usage(`unexpected argument '${k}'`);
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) usage(`${k} needs a value`);
    args.set(k.slice(2), v);
    i++;
  }
  for (const k of args.keys())
    if (!['scenario', 'connections', 'duration', 'rate', 'url', 'token', 'instance', 'out', 'out-dir'].includes(k))
      usage(`unknown option --${k}`);
  const scenario = args.get('scenario');
  if (!scenario || !(SCENARIOS as readonly string[]).includes(scenario)) usage('--scenario is required');
  const name = scenario as ScenarioName;
  const connections = Number(args.get('connections') ?? DEFAULT_CONNECTIONS[name]);
  const durationS = Number(args.get('duration') ?? 30);
  if (!Number.isInteger(connections) || connections < 1 || connections > MAX_CONNECTIONS)
    usage(`--connections must be 1..${MAX_CONNECTIONS}`);
  if (!Number.isFinite(durationS) || durationS <= 0 || durationS > MAX_DURATION_S)
    usage(`--duration must be in (0, ${MAX_DURATION_S}] seconds`);
  const rate = Number(args.get('rate') ?? DEFAULT_RATE);
  if (!Number.isFinite(rate) || rate <= 0 || rate > MAX_RATE) usage(`--rate must be in (0, ${MAX_RATE}] a second`);
  const url = args.get('url');
  const token = args.get('token') ?? process.env['PTYWS_TOKEN'] ?? '';
  if (url && !token) usage('--url needs --token (or PTYWS_TOKEN): an admin token of that server');
  return {
    scenario: name,
    connections,
    durationS,
    rate,
    ...(url ? { url: url.replace(/\/$/, '') } : {}),
    token,
    instance: args.get('instance') ?? process.env['PTYWS_INSTANCE'] ?? 'local',
    ...(args.has('out') ? { out: args.get('out') as string } : {}),
    outDir: args.get('out-dir') ?? join(REPO_ROOT, 'loadtest-results'),
  };
}

/** The bound on the whole run: setup and teardown included. */
function hardLimit(durationS: number): void {
  setTimeout(
    () => {
      process.stderr.write('loadtest: hard time limit reached, stopping\n');
      killAllChildren();
      process.exit(2);
    },
    (durationS + 90) * 1000,
  ).unref();
}

async function main(): Promise<number> {
  const opts = parse(process.argv.slice(2));
  hardLimit(opts.durationS);
  let service: Service | undefined;
  let ep: Endpoint;
  if (opts.url) {
    ep = { httpUrl: opts.url, wsUrl: opts.url.replace(/^http/, 'ws'), instanceId: opts.instance, token: opts.token };
  } else {
    process.stderr.write('loadtest: starting the single-node service (services/standalone)\n');
    service = await startEmbedded();
    ep = service;
  }
  const rec = new Recorder();
  const sessions: string[] = [];
  const tokenIds: string[] = [];
  const ctx: ScenarioContext = {
    ep,
    rec,
    connections: opts.connections,
    deadline: 0,
    rate: opts.rate,
    async createSession(argv) {
      const res = await call(ep, 'POST', '/api/v1/sessions', { argv, cols: 120, rows: 30 });
      const id = (res.body as { session_id?: string } | undefined)?.session_id;
      if (res.status !== 201 || !id) throw new Error(`create session: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      sessions.push(id);
      return id;
    },
    async mintToken(body) {
      const res = await call(ep, 'POST', '/api/v1/tokens', { instance_id: ep.instanceId, ttl_seconds: 3600, ...body });
      const minted = res.body as { token_id?: string; token?: string } | undefined;
      if ((res.status !== 201 && res.status !== 200) || !minted?.token || !minted.token_id)
        throw new Error(`mint token: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      tokenIds.push(minted.token_id);
      return minted.token;
    },
  };
  const startedAt = new Date();
  let runStart = 0;
  const progress = setInterval(() => {
    const s = rec.summary((performance.now() - runStart) / 1000);
    const parts = Object.entries(s).map(([name, m]) =>
      m.type === 'trend'
        ? `${name} p95=${m.p95 ?? '-'}ms n=${m.count}`
        : m.type === 'rate'
          ? `${name}=${m.rate ?? '-'}`
          : `${name}=${m.count}`,
    );
    process.stderr.write(`[${Math.round((performance.now() - runStart) / 1000)}s] ${parts.join('  ')}\n`);
  }, 1000);
  let error: string | undefined;
  let durationS = 0;
  try {
    runStart = performance.now();
    ctx.deadline = runStart + opts.durationS * 1000;
    process.stderr.write(
      `loadtest: ${opts.scenario}, ${opts.connections} connections, ${opts.durationS} s against ${ep.httpUrl}\n`,
    );
    await RUN[opts.scenario](ctx);
  } catch (err) {
    error = (err as Error).message;
  } finally {
    durationS = (performance.now() - rec.start) / 1000;
    clearInterval(progress);
    await mapLimit(sessions, 20, (id) => call(ep, 'DELETE', `/api/v1/sessions/${id}`).catch(() => undefined));
    await mapLimit(tokenIds, 20, (id) => call(ep, 'DELETE', `/api/v1/tokens/${id}`).catch(() => undefined));
    await service?.stop();
  }
  const thresholds = rec.evaluate(THRESHOLDS[opts.scenario], durationS);
  const passed = error === undefined && thresholds.every((t) => t.ok);
  const result = {
    tool: 'pty-ws loadtest',
    scenario: opts.scenario,
    started_at: startedAt.toISOString(),
    target: opts.url ?? 'single-node service started by the driver',
    connections: opts.connections,
    duration_s: opts.durationS,
    elapsed_s: Math.round(durationS * 1000) / 1000,
    metrics: rec.summary(durationS),
    thresholds,
    series: rec.timeSeries(),
    passed,
    ...(error ? { error } : {}),
  };
  const out = opts.out ?? join(opts.outDir, `${opts.scenario}-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  for (const t of thresholds)
    process.stdout.write(
      `${t.ok ? 'ok  ' : 'FAIL'} ${t.metric} ${t.expression} (actual ${t.actual ?? 'no samples'})\n`,
    );
  if (error) process.stdout.write(`error: ${error}\n`);
  process.stdout.write(`${passed ? 'passed' : 'FAILED'}: results in ${out}\n`);
  return passed ? 0 : 1;
}

killChildrenOnExit();

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`loadtest: ${(err as Error).message}\n`);
    killAllChildren();
    process.exit(2);
  },
);
