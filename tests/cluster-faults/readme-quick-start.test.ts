/**
 * The README's cluster quick start, run as written: its shell block is read out of README.md (so
 * the two cannot drift), the set-up lines run in one shell, and each `… &` line is started as its
 * own process with what that shell exported. Rewritten, because the machine is shared: the
 * database name (one per run), the PTYWS_PORT values (moved together onto free consecutive ports,
 * so two edges still sit on adjacent ports) and an added PTYWS_NATS_PREFIX / PTYWS_STATE_DIR (the
 * README sets neither). `npm run build` is skipped: `npm test` has built, and a second build
 * would rewrite the dashboard bundle under the other test workers.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  accepts,
  dropNatsState,
  freePortRange,
  joinSession,
  ServiceProcess,
  TEST_PG_ADMIN_URL,
  TestClient,
  withPg,
  type ServiceHandle,
} from '@pty-ws/testkit';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../..');
const README_DB = 'ptyws';
const README_FIRST_PORT = 8080;

/** The first sh block of the README's "## Cluster mode" section, comments and blank lines removed. */
function quickStartLines(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Cluster mode\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md: no sh block under "## Cluster mode"');
  return block[1]!
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '');
}

interface QuickStart {
  setup: string[];
  services: string[];
}

/** Splits the block and applies the rewrites named at the top of the file. */
function rewrite(lines: string[], db: string, firstPort: number): QuickStart {
  const out: QuickStart = { setup: [], services: [] };
  for (const raw of lines) {
    if (raw === 'npm run build') continue;
    const line = raw
      .replace(new RegExp(`(postgres://[^\\s/]+/)${README_DB}\\b`), `$1${db}`)
      .replace(new RegExp(`^(createdb .*) ${README_DB}$`), `$1 ${db}`)
      .replace(/\bPTYWS_PORT=(\d+)/, (_m, p: string) => `PTYWS_PORT=${firstPort + Number(p) - README_FIRST_PORT}`);
    if (line.endsWith('&')) out.services.push(line.slice(0, -1).trim());
    else out.setup.push(line);
  }
  return out;
}

/** Runs the set-up lines in one bash and returns the environment they leave (their exports). */
function runSetup(setup: string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const script = `set -e\n${setup.join('\n')}\nnode -e 'process.stdout.write(JSON.stringify(process.env))'`;
  const r = spawnSync('bash', ['-c', script], { cwd: ROOT, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`README set-up failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, string>;
}

describe('README cluster quick start', () => {
  const run = randomBytes(4).toString('hex');
  const db = `ptyws_readme_${run}`;
  const prefix = `ptywsreadme${run}`;
  const stateDir = mkdtempSync(path.join(tmpdir(), 'ptyws-readme-'));
  const started: ServiceHandle[] = [];
  let natsUrl: string | undefined;

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await withPg(TEST_PG_ADMIN_URL, (q) => q(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`)).catch(() => undefined);
    if (natsUrl) await dropNatsState(natsUrl, prefix).catch(() => undefined);
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('starts one agent and two edges on adjacent ports (and a second agent), and a session attaches through each edge', async () => {
    const lines = quickStartLines();
    expect(lines[0]).toBe('npm run build');
    // The two edges on adjacent ports, their gRPC ports (PTYWS_PORT + 2) right after them.
    const firstPort = await freePortRange(4);
    const { setup, services } = rewrite(lines, db, firstPort);
    expect(services).toHaveLength(3);
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PTYWS_')));
    const env: Record<string, string> = {
      ...runSetup(setup, inherited),
      PTYWS_NATS_PREFIX: prefix,
      PTYWS_STATE_DIR: stateDir,
      PTYWS_LOG_LEVEL: 'warn',
    };
    natsUrl = env['PTYWS_NATS_URL'];
    expect(env['PTYWS_DATABASE_URL']).toMatch(new RegExp(`/${db}$`));
    const token = env['PTYWS_ADMIN_TOKEN']!;
    expect(token).toMatch(/^[0-9a-f]{48}$/);

    // In the README's order, each once it says it is up (as someone typing them would wait).
    const edges: string[] = [];
    const metricsPorts: number[] = [];
    const start = async (label: string, line: string): Promise<RegExpMatchArray> => {
      const edge = /services\/edge\//.test(line);
      const { service, match } = await ServiceProcess.startCommand(
        label,
        ['bash', '-c', line],
        env,
        edge ? /listening on (http:\/\/\S+)/ : /serving instance .*metrics on http:\/\/[^:]+:(\d+)\//,
      );
      started.push(service);
      if (edge) edges.push(match[1]!.replace(/\/$/, ''));
      else metricsPorts.push(Number(match[1]));
      return match;
    };
    for (const [i, line] of services.entries()) await start(`service-${i + 1}`, line);
    // A second agent on this host (docs/operations.md): same line, another id, and no metrics port chosen.
    const agentLine = services.find((l) => /services\/pty-agent\//.test(l))!;
    expect(agentLine).toMatch(/\bPTYWS_AGENT_ID=host-a\b/);
    await start('agent-host-b', agentLine.replace(/\bPTYWS_AGENT_ID=host-a\b/, 'PTYWS_AGENT_ID=host-b'));
    expect(new Set(metricsPorts).size).toBe(2);
    expect(edges).toEqual([`http://127.0.0.1:${firstPort}`, `http://127.0.0.1:${firstPort + 1}`]);
    // Both edges still run, each with its own gRPC port.
    for (const s of started) expect(s.child.exitCode).toBeNull();
    expect(await accepts(firstPort + 2)).toBe(true);
    expect(await accepts(firstPort + 3)).toBe(true);

    const created = await fetch(`${edges[0]}/api/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ argv: ['/bin/sh'], cols: 80, rows: 24 }),
    });
    expect(created.status).toBe(201);
    const session = (await created.json()) as { session_id: string; instance_id: string };
    const attachPath = `/agents/${session.instance_id}/sessions/${session.session_id}/attach`;
    const clients = await Promise.all(
      edges.map((e) => TestClient.connect(`${e.replace(/^http/, 'ws')}${attachPath}`, { token })),
    );
    try {
      for (const c of clients) await joinSession(c, { role: 'controller' });
      for (const [i, c] of clients.entries()) {
        const marks = clients.map((other) => other.mark());
        c.input(`echo readme-edge-$((${i} + 1))\n`);
        // Both clients see what either edge's client typed (the shell's answer, not the echoed line).
        for (const [j, other] of clients.entries())
          await other.collectOutput(new RegExp(`readme-edge-${i + 1}\\r?\\n`), 5000, marks[j]);
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });
});
