/**
 * services/edge/Dockerfile and services/pty-agent/Dockerfile: linted with dockerfile-utils (the
 * parser/validator behind the VS Code Docker language server) and checked for structure: multi-stage
 * node:20-bookworm -> node:20-bookworm-slim, node-gyp toolchain in the build, `npm ci` from the lock
 * file, production dependencies in the final stage, non-root USER, HEALTHCHECK, EXPOSE of the
 * contract port, the right entry point, no secrets, every workspace manifest copied, and nothing
 * the build COPYs excluded by .dockerignore. The container healthcheck script is run for real
 * against local HTTP servers.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { DockerfileParser, type Dockerfile, type Instruction } from 'dockerfile-ast';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@pty-ws/config';
import { AGENT_ENTRY, DEFAULTS, EDGE_ENTRY, KNOWN_ENV, SECRET_ENV } from './lib/contract';

const ROOT = path.resolve(__dirname, '../..');
const IMAGES = [
  {
    name: 'edge',
    file: 'services/edge/Dockerfile',
    entry: EDGE_ENTRY,
    // HTTP/WebSocket, then gRPC.
    expose: [DEFAULTS.edgePort, DEFAULTS.edgeGrpcPort],
  },
  {
    name: 'agent',
    file: 'services/pty-agent/Dockerfile',
    entry: AGENT_ENTRY,
    expose: [DEFAULTS.agentMetricsPort],
  },
] as const;

interface Stage {
  name?: string;
  image: string;
  instructions: Instruction[];
}

function stages(df: Dockerfile): Stage[] {
  const args = new Map<string, string>();
  for (const a of df.getARGs()) {
    const p = a.getProperty();
    if (p?.getName() && p.getValue() !== null) args.set(p.getName(), p.getValue()!);
  }
  const froms = df.getFROMs();
  const all = df.getInstructions();
  return froms.map((from, i) => {
    const start = from.getRange().start.line;
    const end = i + 1 < froms.length ? froms[i + 1]!.getRange().start.line : Infinity;
    const image = from.getImage()!.replace(/\$\{(\w+)\}|\$(\w+)/g, (_m, a, b) => args.get(a ?? b) ?? '');
    return {
      name: from.getBuildStage() ?? undefined,
      image,
      instructions: all.filter((ins) => ins.getRange().start.line > start && ins.getRange().start.line < end),
    };
  });
}

const args = (ins: Instruction) => ins.getArguments().map((a) => a.getValue());
const flag = (ins: Instruction, name: string) =>
  (ins as unknown as { getFlags(): { getName(): string; getValue(): string | null }[] })
    .getFlags()
    .find((f) => f.getName() === name)
    ?.getValue();
const of = (st: Stage, kw: string) => st.instructions.filter((i) => i.getKeyword() === kw);
/** The ENV of a stage, by name. */
const finalEnvOf = (st: Stage): Record<string, string | null> =>
  Object.fromEntries(
    of(st, 'ENV').flatMap((i) =>
      (i as unknown as { getProperties(): { getName(): string; getValue(): string | null }[] })
        .getProperties()
        .map((p) => [p.getName(), p.getValue()]),
    ),
  );
/** The stage chain a stage inherits from (FROM <stage>). */
function lineage(all: Stage[], st: Stage): Stage[] {
  const parent = all.find((s) => s.name === st.image);
  return parent ? [...lineage(all, parent), st] : [st];
}

// --- .dockerignore (Docker's semantics: last match wins, ! re-includes, a dir match covers its files)
function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
function dockerignored(patterns: string[], file: string): boolean {
  const parts = file.split('/');
  let excluded = false;
  for (const raw of patterns) {
    const neg = raw.startsWith('!');
    const pat = path.posix.normalize(neg ? raw.slice(1) : raw).replace(/^\/+/, '');
    const re = globToRegExp(pat);
    const hit = parts.some((_p, i) => re.test(parts.slice(0, i + 1).join('/')));
    if (hit) excluded = !neg;
  }
  return excluded;
}
const ignorePatterns = fs
  .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

test('.dockerignore keeps local state and secrets out of the build context', () => {
  for (const f of [
    'node_modules/x',
    'packages/protocol/node_modules/y',
    'services/edge/dist/main.js',
    '.git/HEAD',
    '.env',
    'services/edge/.env.local',
    'certs/tls.key',
  ])
    expect([f, dockerignored(ignorePatterns, f)]).toEqual([f, true]);
  for (const f of [
    'package.json',
    'package-lock.json',
    'packages/protocol/src/index.ts',
    'deploy/docker/healthcheck.cjs',
  ])
    expect([f, dockerignored(ignorePatterns, f)]).toEqual([f, false]);
});

describe.each(IMAGES)('$file', ({ file, entry, expose, name }) => {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const df = DockerfileParser.parse(text);
  const st = stages(df);
  const final = st[st.length - 1]!;

  test('lints clean (dockerfile-utils)', () => {
    expect(lintDockerfile(text).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  test('multi-stage: node:20-bookworm with python3/make/g++ builds, node:20-bookworm-slim runs', () => {
    expect(st.length).toBeGreaterThanOrEqual(2);
    const build = st.filter((s) => s !== final);
    expect(build.some((s) => s.image === 'node:20-bookworm')).toBe(true);
    expect(final.image).toBe('node:20-bookworm-slim');
    const toolchain = build.flatMap((s) => of(s, 'RUN')).map((r) => r.getArgumentsContent() ?? '');
    expect(
      toolchain.some((r) => /apt-get install[^&]*\bpython3\b/.test(r) && /\bmake\b/.test(r) && /\bg\+\+/.test(r)),
    ).toBe(true);
    // The final stage gets no compiler.
    expect(of(final, 'RUN').some((r) => /\b(g\+\+|gcc|make|python3)\b/.test(r.getArgumentsContent() ?? ''))).toBe(
      false,
    );
  });

  test('npm ci from the lock file; production-only dependencies reach the final stage', () => {
    const runs = st.flatMap((s) => of(s, 'RUN')).map((r) => r.getArgumentsContent() ?? '');
    expect(runs.some((r) => /\bnpm ci\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnpm (install|i)\b/.test(r))).toBe(false);
    const copied = st
      .filter((s) => s !== final)
      .flatMap((s) => of(s, 'COPY'))
      .flatMap(args);
    expect(copied).toContain('package-lock.json');
    // node_modules in the final stage come from a stage that ran `npm ci --omit=dev`.
    const fromStages = of(final, 'COPY')
      .map((c) => flag(c, 'from'))
      .filter((f): f is string => !!f);
    const depsStage = fromStages
      .map((n) => st.find((s) => s.name === n)!)
      .find((s) => of(s, 'RUN').some((r) => /npm ci\b[^&]*--omit=dev/.test(r.getArgumentsContent() ?? '')));
    expect(depsStage).toBeDefined();
    // node-pty (the one approved install script) is compiled in that stage.
    expect(of(depsStage!, 'RUN').some((r) => /npm rebuild node-pty/.test(r.getArgumentsContent() ?? ''))).toBe(true);
  });

  test('every workspace manifest is copied before npm ci', () => {
    const rootPkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const copied = st.flatMap((s) => of(s, 'COPY')).flatMap(args);
    for (const ws of rootPkg.workspaces as string[]) expect(copied).toContain(`${ws}/package.json`);
  });

  test('runs as a non-root user (the agent: sessions as one), a HEALTHCHECK, the contract port and entry point', () => {
    const users = of(final, 'USER').map((u) => args(u)[0]!);
    expect(users.length).toBeGreaterThan(0);
    const user = users[users.length - 1]!.split(':')[0]!;
    expect(/^\d+$/.test(user)).toBe(true); // numeric: Kubernetes runAsNonRoot can verify it
    if (name === 'agent') {
      // Root, to start every session as the unprivileged PTYWS_SESSION_USER of the base image.
      expect(user).toBe('0');
      expect(finalEnvOf(final)['PTYWS_SESSION_USER']).toBe('node');
    } else {
      expect(user).not.toBe('0');
    }
    const hc = of(final, 'HEALTHCHECK');
    expect(hc).toHaveLength(1);
    const hcArgs = hc[0]!.getArgumentsContent()!;
    expect(hcArgs).toMatch(/CMD \["node", "([^"]+)", "(edge|agent)", "\/healthz"\]/);
    const script = /CMD \["node", "([^"]+)"/.exec(hcArgs)![1]!;
    // The script is copied into the final image.
    expect(of(final, 'COPY').some((c) => args(c).at(-1) === script)).toBe(true);
    expect(hcArgs).toContain(`"${name}"`);
    expect(of(final, 'EXPOSE').flatMap(args)).toEqual(expose.map(String));
    const cmd = JSON.parse(of(final, 'CMD')[0]!.getArgumentsContent()!);
    // The service's node options (packages/config/src/node-flags.ts) come before its entry point.
    expect(cmd).toEqual(['node', ...SERVICE_NODE_FLAGS, entry]);
    // ... and its environment (packages/config/src/service-env.ts) is set in the image it runs in.
    const finalEnv = finalEnvOf(final);
    for (const [k, v] of Object.entries(SERVICE_ENV)) expect([k, finalEnv[k]]).toEqual([k, v]);
    const ep = JSON.parse(of(final, 'ENTRYPOINT')[0]!.getArgumentsContent()!);
    expect(ep[0]).toBe('/usr/bin/tini');
    expect(of(final, 'RUN').some((r) => /apt-get install[^&]*\btini\b/.test(r.getArgumentsContent() ?? ''))).toBe(true);
  });

  (name === 'agent' ? test : test.skip)("the agent's image has what its spawner runs: setsid, stty, setpriv", () => {
    const installs = of(final, 'RUN').map((r) => r.getArgumentsContent() ?? '');
    for (const pkg of ['util-linux', 'coreutils'])
      expect(installs.some((r) => new RegExp(`apt-get install[^&]*\\b${pkg}\\b`).test(r))).toBe(true);
  });

  test('no secrets: no credentials in ENV/ARG, every PTYWS_* name from the contract', () => {
    const props = [...df.getENVs(), ...df.getARGs()].flatMap((i) =>
      (i as unknown as { getProperties(): { getName(): string; getValue(): string | null }[] }).getProperties(),
    );
    for (const p of props) {
      expect(p.getName()).not.toMatch(/TOKEN|PASSWORD|SECRET|_KEY$|CREDENTIAL/i);
      expect((SECRET_ENV as readonly string[]).includes(p.getName())).toBe(false);
      if (/^(PTYWS_|OTEL_)/.test(p.getName()))
        expect((KNOWN_ENV as readonly string[]).includes(p.getName())).toBe(true);
      expect(p.getValue() ?? '').not.toMatch(/:\/\/[^/\s:]+:[^@\s]+@/);
    }
    expect(text).not.toMatch(/-----BEGIN|npm_[A-Za-z0-9]{20,}|_authToken/);
    expect(text).not.toMatch(/^\s*(ADD|COPY)\s+[^\n]*\.(env|pem|key|npmrc)\b/m);
  });

  test('COPY sources exist in the repository and are not excluded by .dockerignore', () => {
    for (const c of st.flatMap((s) => of(s, 'COPY'))) {
      if (flag(c, 'from')) continue;
      for (const src of args(c).slice(0, -1)) {
        const rel = src.replace(/\/$/, '');
        expect([src, fs.existsSync(path.join(ROOT, rel))]).toEqual([src, true]);
        if (fs.statSync(path.join(ROOT, rel)).isFile())
          expect([src, dockerignored(ignorePatterns, rel)]).toEqual([src, false]);
      }
    }
  });

  test('stages inherit sensibly (deps/build from the toolchain stage)', () => {
    for (const s of st.slice(1, -1)) {
      const chain = lineage(st, s);
      expect(chain[0]!.image).toBe('node:20-bookworm');
    }
  });
});

// --- deploy/docker/healthcheck.cjs, run for real ------------------------------------------------

const SCRIPT = path.join(ROOT, 'deploy/docker/healthcheck.cjs');

async function serve(status: number): Promise<{ port: number; paths: string[]; close(): Promise<void> }> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function runHealthcheck(role: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, role, '/healthz'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

describe('deploy/docker/healthcheck.cjs', () => {
  test('edge: 200 on /healthz of PTYWS_PORT is healthy, 503 is not', async () => {
    const ok = await serve(200);
    const bad = await serve(503);
    try {
      expect(await runHealthcheck('edge', { PTYWS_PORT: String(ok.port), PTYWS_HOST: '0.0.0.0' })).toBe(0);
      expect(ok.paths).toEqual(['/healthz']);
      expect(await runHealthcheck('edge', { PTYWS_PORT: String(bad.port) })).toBe(1);
    } finally {
      await ok.close();
      await bad.close();
    }
  });

  test('agent: probes PTYWS_AGENT_METRICS_PORT, not PTYWS_PORT', async () => {
    const ok = await serve(200);
    const other = await serve(503);
    try {
      expect(
        await runHealthcheck('agent', { PTYWS_AGENT_METRICS_PORT: String(ok.port), PTYWS_PORT: String(other.port) }),
      ).toBe(0);
      expect(other.paths).toEqual([]);
    } finally {
      await ok.close();
      await other.close();
    }
  });

  test('nothing listening is unhealthy', async () => {
    const gone = await serve(200);
    const port = gone.port;
    await gone.close();
    expect(await runHealthcheck('edge', { PTYWS_PORT: String(port) })).toBe(1);
  });
});
