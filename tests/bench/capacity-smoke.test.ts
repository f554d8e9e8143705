/**
 * Smoke test of `npm run capacity`: one `--tiny` run, then a check that the JSON holds every
 * figure of every phase as a finite number and the table a row per figure. No timing or memory
 * is asserted (project rule): a tiny run's numbers on a busy CI machine mean nothing.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@pty-ws/config';

const ROOT = join(__dirname, '..', '..');
const CAPACITY = join(ROOT, 'loadtest', 'dist', 'capacity.js');
const LATENCY = ['samples', 'p50_ms', 'p99_ms', 'mean_ms', 'max_ms'];

function finite(obj: Record<string, unknown> | undefined, keys: string[], where: string): void {
  expect(obj).toBeDefined();
  for (const k of keys) {
    const v = obj?.[k];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${where}.${k} is not a finite number: ${v}`);
  }
}

describe('npm run capacity -- --tiny (smoke)', () => {
  let dir: string;
  let report: any;
  let stdout = '';

  beforeAll(async () => {
    expect(existsSync(CAPACITY)).toBe(true); // built by `npm test` (tsconfig.build.json references loadtest)
    dir = mkdtempSync(join(tmpdir(), 'ptyws-capacity-'));
    const out = join(dir, 'capacity.json');
    // The timeout is past capacity's own hard limit (the tiny budget + a phase's overrun + 15 s).
    const res = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [...SERVICE_NODE_FLAGS, CAPACITY, '--tiny', '--out', out],
        { cwd: ROOT, timeout: 110_000, env: { ...process.env, ...SERVICE_ENV } },
        (err, so, se) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout: so, stderr: se }),
      ),
    );
    stdout = res.stdout;
    if (res.code !== 0 || !existsSync(out)) throw new Error(`capacity exited ${res.code}: ${res.stderr.slice(-2000)}`);
    report = JSON.parse(readFileSync(out, 'utf8'));
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('records the profile, the machine and the goals, with no phase failed', () => {
    expect(report.schema).toBe('pty-ws-capacity/1');
    expect(report.mode).toBe('single-node');
    expect(report.profile.name).toBe('tiny');
    expect(report.machine.node).toBe(process.version);
    expect(report.errors).toEqual({});
    finite(report.goals, ['per_socket_kb', 'per_session_kb'], 'goals');
  });

  it('has a level per idle socket count and per idle session count', () => {
    expect(report.idle_sockets.levels.map((l: any) => l.sockets)).toEqual(report.profile.sockets);
    for (const l of report.idle_sockets.levels)
      finite(l, ['sockets', 'rss_kb', 'per_socket_kb', 'cpu_at_rest_pct', 'open_ms'], 'idle_sockets');
    expect(report.idle_sessions.levels.map((l: any) => l.sessions)).toEqual(report.profile.sessions);
    for (const l of report.idle_sessions.levels)
      finite(l, ['sessions', 'rss_kb', 'per_session_kb', 'heap_kb', 'create_ms'], 'idle_sessions');
    finite(
      report.idle_sessions.asleep,
      ['sessions', 'rss_kb', 'per_session_kb', 'heap_kb', 'heap_per_session_kb'],
      'idle_sessions.asleep',
    );
  });

  it('has echo latencies per typing level, the attach storm against the uWS floor, and churn', () => {
    expect(report.typing.map((l: any) => l.sessions)).toEqual(report.profile.typing);
    for (const l of report.typing) finite(l, [...LATENCY, 'rate_hz', 'timeouts', 'server_cpu_pct'], 'typing');
    for (const k of ['service', 'uws_floor'])
      finite(report.attach_storm[k], [...LATENCY, 'attaches', 'concurrency', 'per_s', 'failures'], k);
    expect(report.attach_storm.service.attaches).toBe(report.profile.stormAttaches);
    finite(report.attach_storm, ['ratio'], 'attach_storm');
    finite(
      report.churn,
      ['sessions', 'rss_before_kb', 'rss_peak_kb', 'rss_after_kb', 'heap_before_kb', 'heap_after_kb'],
      'churn',
    );
    expect(report.churn.sessions).toBe(report.profile.churnSessions);
  });

  it('prints the table: a row per figure, then where the JSON went', () => {
    expect(stdout).toMatch(/^figure\s+single-node$/m);
    for (const n of report.profile.sockets)
      expect(stdout).toMatch(new RegExp(`^idle observer sockets ${n}\\s+-?[\\d.]+ KB/socket`, 'm'));
    for (const n of report.profile.sessions)
      expect(stdout).toMatch(new RegExp(`^idle sessions ${n}\\s+-?[\\d.]+ KB/session`, 'm'));
    expect(stdout).toMatch(/^uWS upgrade floor\s+[\d.]+\/s/m);
    expect(stdout).toMatch(/^churn \d+ sessions\s+RSS \d+ -> peak \d+ -> \d+ MB/m);
    expect(stdout).toMatch(/^JSON: /m);
  });
});
