/**
 * Smoke test of the load driver (`npm run bench`): one `--tiny` run over the raw baseline and the
 * embedded service, then a check that the JSON holds every figure as a finite number. No timing
 * is asserted (project rule): the numbers of a tiny run on a busy CI machine mean nothing.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@pty-ws/config';
import { parseBenchReport, renderMarkdown } from '../../loadtest/src/markdown';

const ROOT = join(__dirname, '..', '..');
const BENCH = join(ROOT, 'loadtest', 'dist', 'bench.js');

const LATENCY = ['samples', 'p50_ms', 'p99_ms', 'mean_ms', 'max_ms'];
const ECHO = [...LATENCY, 'sessions', 'busy_rate_hz', 'server_cpu_pct'];
const FANOUT = [
  'observers',
  'bytes_per_observer',
  'per_observer_mb_s',
  'min_observer_mb_s',
  'total_mb_s',
  'duration_ms',
  'server_cpu_pct',
  'client_cpu_pct',
  'client_loop_pct',
  'client_gc_ms',
  'lagged_observers',
  'incomplete_observers',
];
const ATTACH = [...LATENCY, 'history_frames', 'connect_ms_p50', 'flush_frames', 'flush_bytes'];
const MEMORY = ['sessions', 'rss_before_kb', 'rss_after_kb', 'per_session_kb'];

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // As `npm run bench` starts it: with the services' heap floor and environment (its readers live in this process).
    execFile(
      process.execPath,
      [...SERVICE_NODE_FLAGS, BENCH, ...args],
      { cwd: ROOT, timeout: 85_000, env: { ...process.env, ...SERVICE_ENV } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Every listed key is present and a finite number. */
function expectFinite(obj: Record<string, unknown> | undefined, keys: string[], where: string): void {
  expect(obj).toBeDefined();
  for (const k of keys) {
    const v = obj?.[k];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${where}.${k} is not a finite number: ${v}`);
  }
  // The machine's CPU comes from /proc/stat in clock ticks (10 ms): a tiny run's floor can finish
  // within one, and then there is no figure (null), rather than a made-up 0.
  if (keys === FANOUT) {
    const tiny = (obj?.['duration_ms'] as number) < 30;
    const v = obj?.['machine_cpu_pct'];
    if (!(typeof v === 'number' && Number.isFinite(v)) && !(tiny && v === null)) {
      throw new Error(`${where}.machine_cpu_pct is not a finite number: ${v}`);
    }
  }
}

describe('npm run bench -- --tiny (smoke)', () => {
  let dir: string;
  let report: any;
  let stdout = '';

  beforeAll(async () => {
    expect(existsSync(BENCH)).toBe(true); // built by `npm test` (tsconfig.build.json references loadtest)
    dir = mkdtempSync(join(tmpdir(), 'ptyws-bench-'));
    const out = join(dir, 'bench.json');
    const res = await run([
      '--tiny',
      '--only',
      'raw-node-pty,uws-floor,relay-floor,wetty,embedded',
      '--out',
      out,
      '--markdown',
    ]);
    stdout = res.stdout;
    if (res.code !== 0 || !existsSync(out)) throw new Error(`bench exited ${res.code}: ${res.stderr.slice(-2000)}`);
    report = JSON.parse(readFileSync(out, 'utf8'));
  }, 90_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('records the machine, the date and the profile', () => {
    expect(report.schema).toBe('pty-ws-bench/1');
    expect(Number.isNaN(Date.parse(report.date))).toBe(false);
    expect(report.profile.name).toBe('tiny');
    expect(report.machine.node).toBe(process.version);
    expect(report.machine.node_options).toEqual([...SERVICE_NODE_FLAGS]);
    expect(report.machine.glibc_tunables).toBe(SERVICE_ENV['GLIBC_TUNABLES']);
    expect(report.machine.transparent_hugepage).toMatch(/^(always|madvise|never|unknown)$/);
    expect(stdout).not.toContain('WARNING');
    expectFinite(report.machine, ['cpus', 'total_mem_mb', 'clk_tck'], 'machine');
  });

  it('has every raw-node-pty baseline figure', () => {
    const raw = report.targets['raw-node-pty'];
    expect({ status: raw.status, errors: raw.errors }).toEqual({ status: 'ok', errors: {} });
    expectFinite(raw.metrics.echo_1, ECHO, 'raw.echo_1');
    expectFinite(raw.metrics.echo_loaded, ECHO, 'raw.echo_loaded');
    expectFinite(raw.metrics.throughput['1'], FANOUT, 'raw.throughput.1');
    expectFinite(raw.metrics.idle_memory, MEMORY, 'raw.idle_memory');
  });

  it('has every embedded figure: echo, fan-out per observer count, attach variants, memory', () => {
    const emb = report.targets.embedded;
    expect({ status: emb.status, errors: emb.errors }).toEqual({ status: 'ok', errors: {} });
    expectFinite(emb.metrics.echo_1, ECHO, 'embedded.echo_1');
    expectFinite(emb.metrics.echo_loaded, ECHO, 'embedded.echo_loaded');
    expect(emb.metrics.echo_loaded.sessions).toBe(report.profile.loadedSessions);
    for (const n of report.profile.observers) {
      expectFinite(emb.metrics.throughput[String(n)], FANOUT, `embedded.throughput.${n}`);
      expect(emb.metrics.throughput[String(n)].observers).toBe(n);
    }
    expect(Object.keys(emb.metrics.attach).sort()).toEqual([
      'keyframe_binary',
      'keyframe_json',
      'replay_binary',
      'replay_json',
    ]);
    for (const [k, a] of Object.entries<any>(emb.metrics.attach)) expectFinite(a, ATTACH, `embedded.attach.${k}`);
    expectFinite(emb.metrics.idle_memory, MEMORY, 'embedded.idle_memory');
    expectFinite(emb.metrics.fanout_big, FANOUT, 'embedded.fanout_big');
    expect(emb.metrics.fanout_big.observers).toBe(report.profile.bigFanout.observers);
  });

  it('has the peer (wetty) and the raw uWS floor (publish and echo) from the same run', () => {
    const wetty = report.targets.wetty;
    expect({ status: wetty.status, errors: wetty.errors }).toEqual({ status: 'ok', errors: {} });
    expectFinite(wetty.metrics.echo_1, ECHO, 'wetty.echo_1');
    expectFinite(wetty.metrics.throughput['1'], FANOUT, 'wetty.throughput.1');
    const floor = report.targets['uws-floor'];
    expect({ status: floor.status, errors: floor.errors }).toEqual({ status: 'ok', errors: {} });
    expectFinite(floor.metrics.echo_1, ECHO, 'floor.echo_1');
    for (const n of report.profile.observers) expectFinite(floor.metrics.throughput[String(n)], FANOUT, `floor.${n}`);
    expectFinite(floor.metrics.fanout_big, FANOUT, 'floor.fanout_big');
    expectFinite(report.ratios_to_wetty.embedded, ['echo_1_p50', 'throughput_1_per_observer'], 'ratios_to_wetty');
    expectFinite(report.ratios.embedded, ['fanout_big_total'], 'ratios.embedded (floor)');
  });

  it('has the relay floor (uWS and node-pty in one process) and echo and stream ratios to it', () => {
    const relay = report.targets['relay-floor'];
    expect({ status: relay.status, errors: relay.errors }).toEqual({ status: 'ok', errors: {} });
    expectFinite(relay.metrics.echo_1, ECHO, 'relay.echo_1');
    expectFinite(relay.metrics.echo_loaded, ECHO, 'relay.echo_loaded');
    expect(relay.metrics.echo_loaded.sessions).toBe(report.profile.loadedSessions);
    expectFinite(relay.metrics.throughput['1'], FANOUT, 'relay.throughput.1');
    expectFinite(
      report.ratios_to_relay.embedded,
      ['echo_1_p50', 'echo_1_p99', 'echo_loaded_p50', 'echo_loaded_p99', 'throughput_1_per_observer'],
      'ratios_to_relay.embedded',
    );
  });

  it("reports a fresh process's first session apart, on every echo target", () => {
    expect(report.profile.echoWarmupSessions).toBeGreaterThan(0);
    for (const name of ['raw-node-pty', 'uws-floor', 'relay-floor', 'wetty', 'embedded'])
      expectFinite(report.targets[name].metrics.echo_1.first_session, ['p50_ms', 'p99_ms'], `${name}.first_session`);
    expect(stdout).toMatch(/^echo p99 ms, first session\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+/m);
  });

  it("reports each target's one stream as the median of its rounds", () => {
    expect(report.profile.streamRounds).toBeGreaterThan(1);
    for (const name of ['raw-node-pty', 'uws-floor', 'relay-floor', 'wetty', 'embedded']) {
      const stream = report.targets[name].metrics.throughput['1'];
      const rounds: number[] = stream.rounds_mb_s;
      expect(rounds).toHaveLength(report.profile.streamRounds);
      const sorted = [...rounds].sort((a, b) => a - b);
      expect(stream.per_observer_mb_s).toBe(sorted[Math.floor((sorted.length - 1) / 2)]);
    }
    expect(stdout).toMatch(/^MB\/s per observer, 1 obs, median of \d+\s+[\d.]+/m);
  });

  it('reports the big fan-out of the floor and the service as the median of their rounds', () => {
    expect(report.profile.bigFanout.rounds).toBeGreaterThan(1);
    for (const name of ['uws-floor', 'embedded']) {
      const big = report.targets[name].metrics.fanout_big;
      const rounds: number[] = big.rounds_total_mb_s;
      expect(rounds).toHaveLength(report.profile.bigFanout.rounds);
      const sorted = [...rounds].sort((a, b) => a - b);
      expect(big.total_mb_s).toBe(sorted[Math.floor((sorted.length - 1) / 2)]);
    }
    expect(report.ratios.embedded.fanout_big_total).toBeGreaterThan(0);
    expect(stdout).toMatch(/^MB\/s total, \d+ obs x \d+ MB, median of \d+\s+/m);
  });

  it("pairs each round of a target's stream with a raw node-pty round, and each big fan-out round with a floor round", () => {
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;
    const checkPairs = (m: any, baseline: string, own: number[], where: string): number => {
      expect({ where, name: m.paired?.name }).toEqual({ where, name: baseline });
      expect(m.paired.rounds).toHaveLength(own.length);
      expect(m.paired.ratios).toEqual(own.map((v, i) => Math.round((v / m.paired.rounds[i]) * 100) / 100));
      expect(m.paired.median_ratio).toBe(median(m.paired.ratios));
      return m.paired.median_ratio;
    };
    for (const name of ['relay-floor', 'wetty', 'embedded']) {
      const stream = report.targets[name].metrics.throughput['1'];
      const r = checkPairs(stream, 'raw-node-pty', stream.rounds_mb_s, `${name}.throughput.1`);
      expect(report.ratios[name].throughput_1_per_observer_paired).toBe(r);
    }
    const big = report.targets.embedded.metrics.fanout_big;
    const r = checkPairs(big, 'uws-floor', big.rounds_total_mb_s, 'embedded.fanout_big');
    expect(report.ratios.embedded.fanout_big_total_paired).toBe(r);
    // The baselines' own rounds are not paired with anything.
    expect(report.targets['raw-node-pty'].metrics.throughput['1'].paired).toBeUndefined();
    expect(report.targets['uws-floor'].metrics.fanout_big.paired).toBeUndefined();
    expect(stdout).toMatch(/^MB\/s per observer, 1 obs, median of \d+\s.*\dx paired/m);
    expect(stdout).toMatch(/^MB\/s total, \d+ obs x \d+ MB, median of \d+\s.*\dx paired/m);
  });

  it('computes every ratio against the raw baseline', () => {
    const keys = [
      'echo_1_p50',
      'echo_1_p99',
      'echo_loaded_p50',
      'echo_loaded_p99',
      ...report.profile.observers.map((n: number) => `throughput_${n}_per_observer`),
      'idle_memory_per_session',
    ];
    expectFinite(report.ratios.embedded, keys, 'ratios.embedded');
  });

  it('reports targets left out with a reason instead of dropping them', () => {
    expect(report.targets.cluster).toMatchObject({ status: 'skipped', reason: expect.any(String) });
  });

  it('prints the table with a row per figure and a column per target', () => {
    expect(stdout).toMatch(/^metric\s+raw-node-pty\s+uws-floor\s+relay-floor\s+wetty\s+embedded\s+cluster$/m);
    // raw, floor (the WebSocket round trip alone), relay (socket and PTY), wetty (ratios to raw and to the relay),
    // embedded (ratios to raw, to the relay and to wetty)
    expect(stdout).toMatch(
      /^echo p50 ms, 1 session\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\S+ \([\d.]+x, [\d.]+x relay\)\s+\S+ \([\d.]+x, [\d.]+x relay, [\d.]+x wetty\)/m,
    );
    expect(stdout).toMatch(/^JSON: /m);
  });

  it('with --markdown, prints the Markdown summary and writes it beside the JSON, as --markdown-from renders it', () => {
    const md = readFileSync(join(dir, 'bench.md'), 'utf8');
    expect(md).toBe(renderMarkdown(parseBenchReport(readFileSync(join(dir, 'bench.json'), 'utf8'), 'bench.json')));
    expect(md).toMatch(/^\| figure \| raw-node-pty \| uws-floor \| relay-floor \| wetty \| embedded \|$/m);
    expect(stdout).toContain(md);
    expect(stdout).toMatch(/^Markdown: .*bench\.md$/m);
  });
});
