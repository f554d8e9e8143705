/**
 * Cluster mode for the test suite: one pty-agent and two edges as real processes against the
 * machine's NATS and Postgres, each run in its own database and NATS prefix so runs never
 * collide. Clients of one session are spread across both edges (attachUrl alternates).
 * Fault tests reach the processes through `agents` / `edges` (kill with a signal, restart) and
 * may point the cluster at a NATS or Postgres of their own (ClusterOptions).
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '@pty-ws/config';
import { ServiceProcess, type ServiceHandle } from './cluster-process';
import { databaseUrl, dropNatsState, NATS_URL, PG_ADMIN_URL, withPg } from './backends';
import { freePort, onFreePorts } from './ports';

export interface EdgeHandle extends ServiceHandle {
  readonly edgeId: string;
  /** Stable across restart(): a restarted edge listens on its first port again. */
  readonly httpUrl: string;
  readonly wsUrl: string;
  /** `host:port` of its gRPC server, when the cluster was started with a non-zero `grpcPort`. */
  readonly grpcAddress?: string;
}

export interface AgentHandle extends ServiceHandle {
  readonly agentId: string;
}

export interface ClusterOptions {
  /** A NATS server other than the machine's (a fault test's own, which it may restart). */
  natsUrl?: string;
  /**
   * A database the caller owns (e.g. on its own temporary Postgres), used as is: the cluster
   * neither creates nor drops it. Default: a fresh database on the machine's Postgres.
   */
  databaseUrl?: string;
  /**
   * How long the agent waits for a silent edge before releasing its members. Needs a PTYWS_*
   * variable for it in packages/config (the agent reads none yet): refused until one exists.
   */
  edgeTimeoutMs?: number;
  /** Extra variables for every process (not PTYWS_*: e.g. OTEL_* to turn tracing on). */
  env?: Record<string, string>;
  /**
   * How many pty-agents serve the instance (default 1). The first is `agent-<run>`, the others
   * `agent-<run>-2`, `agent-<run>-3`, …; all are started before the edges, so the edges' agent
   * directories know every one of them.
   */
  agents?: number;
}

export interface ClusterHandle {
  config: Config;
  host: string;
  port: number;
  instanceId: string;
  adminToken: string;
  httpUrl: string;
  wsUrl: string;
  /** Every edge's ws:// base; attach URLs rotate through them. */
  edgeWsUrls: string[];
  /** Every edge's gRPC `host:port` (empty when gRPC is off, the test default). */
  edgeGrpcAddresses: string[];
  /** The processes, for fault tests: [agent, …], [edge a, edge b]. */
  agents: AgentHandle[];
  edges: EdgeHandle[];
  /** The PTYWS_NATS_PREFIX of this run (its JetStream stream and KV bucket names derive from it). */
  natsPrefix: string;
  stop(): Promise<void>;
}

interface ConfigVariableLike {
  name: string;
  field: string;
}

/** Overrides → PTYWS_* variables, using the config package's own table. */
function toEnv(overrides: Partial<Config>): Record<string, string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { CONFIG_VARIABLES } = require('@pty-ws/config') as { CONFIG_VARIABLES: readonly ConfigVariableLike[] };
  const env: Record<string, string> = {};
  for (const [field, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const v = CONFIG_VARIABLES.find((c) => c.field === field);
    if (!v) throw new Error(`no PTYWS_* variable for config field '${field}'`);
    env[v.name] =
      field === 'authEnabled'
        ? value
          ? 'enabled'
          : 'disabled'
        : typeof value === 'boolean'
          ? value
            ? '1'
            : '0'
          : Array.isArray(value)
            ? value.join(',')
            : String(value);
  }
  return env;
}

function loadConfigFrom(env: Record<string, string>): Config {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { loadConfig } = require('@pty-ws/config') as { loadConfig: (env: NodeJS.ProcessEnv) => Config };
  return loadConfig(env);
}

/** The edge-timeout variable, if packages/config has one by now. */
function edgeTimeoutEnv(ms: number | undefined): Record<string, string> {
  if (ms === undefined) return {};
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { CONFIG_VARIABLES } = require('@pty-ws/config') as { CONFIG_VARIABLES: readonly ConfigVariableLike[] };
  const v = CONFIG_VARIABLES.find((c) => c.field === 'edgeTimeoutMs');
  if (!v) throw new Error('edgeTimeoutMs needs a PTYWS_* variable in packages/config, read by the agent');
  return { [v.name]: String(ms) };
}

/**
 * Edges get an explicit port rather than 0: uWS sets SO_REUSEADDR only for a given port, and
 * without it the TIME_WAIT sockets a killed edge leaves behind keep restart() off its port.
 * Picking a port and binding it later can lose a race with another process: try a few.
 */
async function startEdge(base: Record<string, string>, edgeId: string, label: string): Promise<EdgeHandle> {
  // gRPC, when asked for, gets a port of its own per edge (both edges run on this machine).
  const grpc = (base['PTYWS_GRPC_PORT'] ?? '0') !== '0';
  return onFreePorts(async () => {
    const port = await freePort();
    const grpcPort = grpc ? await freePort() : 0;
    const { service, match } = await ServiceProcess.start(
      label,
      'services/edge/dist/main.js',
      { ...base, PTYWS_EDGE_ID: edgeId, PTYWS_PORT: String(port), PTYWS_GRPC_PORT: String(grpcPort) },
      /listening on (https?):\/\/([^:]+):(\d+)/,
    );
    // An edge with PTYWS_TLS_CERT serves https and wss.
    const tls = match[1] === 'https';
    const host = `${match[2]}:${match[3]}`;
    return Object.assign(service, {
      edgeId,
      httpUrl: `${tls ? 'https' : 'http'}://${host}`,
      wsUrl: `${tls ? 'wss' : 'ws'}://${host}`,
      ...(grpc ? { grpcAddress: `${match[2]}:${grpcPort}` } : {}),
    });
  });
}

export async function startCluster(overrides: Partial<Config>, options: ClusterOptions = {}): Promise<ClusterHandle> {
  const run = randomBytes(4).toString('hex');
  const ownDb = options.databaseUrl === undefined;
  const db = `ptyws_t_${run}`;
  const prefix = `ptywst${run}`;
  const natsUrl = options.natsUrl ?? NATS_URL;
  const adminToken = overrides.adminToken ?? `ptyws_test_admin_${randomBytes(16).toString('hex')}`;
  if (ownDb) await withPg(PG_ADMIN_URL, (q) => q(`CREATE DATABASE ${db}`));
  const dbUrl = options.databaseUrl ?? databaseUrl(db);
  const base = {
    ...toEnv(overrides),
    ...edgeTimeoutEnv(options.edgeTimeoutMs),
    PTYWS_NATS_URL: natsUrl,
    PTYWS_DATABASE_URL: dbUrl,
    PTYWS_NATS_PREFIX: prefix,
    PTYWS_ADMIN_TOKEN: adminToken,
    PTYWS_PORT: '0',
  };
  const procEnv = { ...options.env, ...base };
  const services: ServiceHandle[] = [];
  const cleanup = async () => {
    await Promise.all(services.map((s) => s.stop()));
    if (ownDb)
      await withPg(PG_ADMIN_URL, (q) => q(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`)).catch(() => undefined);
    await dropNatsState(natsUrl, prefix).catch(() => undefined);
  };
  try {
    const agents: AgentHandle[] = [];
    for (let i = 1; i <= (options.agents ?? 1); i++) {
      const agentId = i === 1 ? `agent-${run}` : `agent-${run}-${i}`;
      const agent = await ServiceProcess.start(
        i === 1 ? 'agent' : `agent-${i}`,
        'services/pty-agent/dist/main.js',
        { ...procEnv, PTYWS_AGENT_ID: agentId, PTYWS_AGENT_METRICS_PORT: '0' },
        /serving instance/,
      );
      services.push(agent.service);
      agents.push(Object.assign(agent.service, { agentId }));
    }
    const settled = await Promise.allSettled(
      ['a', 'b'].map((e) => startEdge(procEnv, `edge-${e}-${run}`, `edge-${e}`)),
    );
    for (const r of settled) if (r.status === 'fulfilled') services.push(r.value);
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    const edges = settled.map((r) => (r as PromiseFulfilledResult<EdgeHandle>).value);
    const config = loadConfigFrom(base);
    return {
      config,
      host: config.host,
      port: Number(new URL(edges[0]!.httpUrl).port),
      instanceId: config.instanceId,
      adminToken,
      httpUrl: edges[0]!.httpUrl,
      wsUrl: edges[0]!.wsUrl,
      edgeWsUrls: edges.map((e) => e.wsUrl),
      edgeGrpcAddresses: edges.flatMap((e) => (e.grpcAddress ? [e.grpcAddress] : [])),
      agents,
      edges,
      natsPrefix: prefix,
      stop: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
