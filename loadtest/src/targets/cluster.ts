/**
 * Cluster mode: a pty-agent and an edge as separate processes over NATS JetStream and Postgres.
 * Runs only when both services have a built `main.js`; each run gets a fresh database and NATS
 * prefix so nothing from an earlier run (or the test suite) is in the way.
 */
import { existsSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '@pty-ws/config';
import { ChildWatch, spawnTracked, stopChild, waitForOutput } from '../children';
import { call, createSession, deleteSession } from '../rest';
import type { Service } from '../service';
import { REPO_ROOT, benchToken, serviceEnv } from './embedded';
import { deleteStreamsOf } from './nats-cleanup';

const NATS_URL = 'nats://127.0.0.1:4222';
const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Why cluster mode cannot run here, or undefined when its entry points exist. */
export function clusterUnavailable(): string | undefined {
  const missing = ['edge', 'pty-agent']
    .map((s) => join(REPO_ROOT, 'services', s, 'dist', 'main.js'))
    .filter((p) => !existsSync(p));
  return missing.length
    ? `cluster mode not available yet (missing ${missing.map((p) => p.slice(REPO_ROOT.length + 1)).join(', ')})`
    : undefined;
}

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = tcpConnect({ host, port, timeout: 1000 }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

/** Runs one statement on the server's maintenance database (CREATE/DROP DATABASE). */
async function adminSql(sql: string): Promise<void> {
  // pg is a dependency of the Postgres adapter, resolved at run time: the driver itself does not need it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pg = require('pg') as { Client: new (o: { connectionString: string }) => PgClient };
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Retries until the agent has registered and a session can be placed on it. */
async function waitPlaceable(svc: Service, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const ready = await call(svc, 'GET', '/readyz');
      if (ready.status === 200) {
        const id = await createSession(svc, ['/bin/true']);
        await deleteSession(svc, id);
        return;
      }
      last = `readyz ${ready.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`cluster not ready within ${timeoutMs} ms: ${last}`);
}

/** `extra`: settings beyond serviceEnv's, for both processes. */
export async function startCluster(extra: Record<string, string> = {}): Promise<Service> {
  if (!(await reachable('127.0.0.1', 4222))) throw new Error(`NATS is not reachable at ${NATS_URL}`);
  if (!(await reachable('127.0.0.1', 5432))) throw new Error('Postgres is not reachable at 127.0.0.1:5432');
  const tag = `bench_${Date.now().toString(36)}_${process.pid}`;
  await adminSql(`CREATE DATABASE ${tag}`);
  const dropDb = (): Promise<void> => adminSql(`DROP DATABASE IF EXISTS ${tag} WITH (FORCE)`).catch(() => undefined);
  const token = benchToken();
  const env = serviceEnv({
    PTYWS_ADMIN_TOKEN: token,
    PTYWS_NATS_URL: NATS_URL,
    PTYWS_DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${tag}`,
    PTYWS_NATS_PREFIX: tag,
    PTYWS_AGENT_ID: `${tag}-agent`,
    PTYWS_EDGE_ID: `${tag}-edge`,
    ...extra,
  });
  const start = (svc: string) =>
    spawnTracked(process.execPath, [...SERVICE_NODE_FLAGS, join(REPO_ROOT, 'services', svc, 'dist', 'main.js')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const agent = start('pty-agent');
  const edge = start('edge');
  const watches = [new ChildWatch(agent, 'pty-agent'), new ChildWatch(edge, 'edge')];
  const stopAll = async (): Promise<void> => {
    await Promise.all([stopChild(edge), stopChild(agent)]);
    await dropDb();
    await deleteStreamsOf('127.0.0.1:4222', tag).catch(() => undefined);
  };
  try {
    const m = await waitForOutput(edge, /(https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+)/, 20_000, 'edge');
    const httpUrl = m[1] as string;
    const svc: Service = {
      httpUrl,
      wsUrl: httpUrl.replace(/^http/, 'ws'),
      instanceId: 'bench',
      token,
      cpuPids: [edge.pid as number, agent.pid as number],
      hostPid: agent.pid as number,
      death: () => watches.map((w) => w.death()).find((d) => d !== undefined),
      stop: stopAll,
    };
    await waitPlaceable(svc, 20_000);
    return svc;
  } catch (err) {
    await stopAll();
    throw err;
  }
}
