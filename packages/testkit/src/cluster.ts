/**
 * Cluster mode for the test suite: one pty-agent and two edges as real processes against the
 * machine's NATS and Postgres, each run in its own database and NATS prefix so runs never
 * collide. Clients of one session are spread across both edges (attachUrl alternates).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Config } from '@pty-ws/config';

const ROOT = path.resolve(__dirname, '../../..');
const NATS_URL = process.env['PTYWS_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const PG_ADMIN_URL = process.env['PTYWS_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

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

/** Starts a service and resolves with the first stdout line matching `ready`. */
function startProcess(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
  label: string,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, script)], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`${label} did not start in 15 s\n${out}${err}`)), 15_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = out.match(ready);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m });
      }
    });
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      if (process.env['PTYWS_TEST_LOG_LEVEL']) process.stderr.write(`[${label}] ${d.toString()}`);
    });
    child.on('exit', (code) => fail(new Error(`${label} exited with ${code} before it was ready\n${out}${err}`)));
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function withPg<T>(url: string, fn: (q: (sql: string) => Promise<unknown>) => Promise<T>): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client } = require('pg') as {
    Client: new (o: { connectionString: string }) => {
      connect(): Promise<void>;
      query(s: string): Promise<unknown>;
      end(): Promise<void>;
    };
  };
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn((sql) => c.query(sql));
  } finally {
    await c.end();
  }
}

/** Deletes what a run left in JetStream: its frame stream and membership bucket. */
async function dropNatsState(prefix: string): Promise<void> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { connect } = require('@nats-io/transport-node') as typeof import('@nats-io/transport-node');
  const { jetstreamManager } = require('@nats-io/jetstream') as typeof import('@nats-io/jetstream');
  const { defaultFrameStreamName } = require('@pty-ws/adapters-nats') as {
    defaultFrameStreamName: (p: string) => string;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const nc = await connect({ servers: NATS_URL });
  try {
    const jsm = await jetstreamManager(nc);
    for (const name of [defaultFrameStreamName(prefix), `KV_${prefix}_membership`]) {
      await jsm.streams.delete(name).catch(() => undefined);
    }
  } finally {
    await nc.close();
  }
}

export async function startCluster(overrides: Partial<Config>): Promise<ClusterHandle> {
  const run = randomBytes(4).toString('hex');
  const db = `ptyws_t_${run}`;
  const prefix = `ptywst${run}`;
  const adminToken = overrides.adminToken ?? `ptyws_test_admin_${randomBytes(16).toString('hex')}`;
  await withPg(PG_ADMIN_URL, (q) => q(`CREATE DATABASE ${db}`));
  const databaseUrl = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${db}`);
  const base = {
    ...toEnv(overrides),
    PTYWS_NATS_URL: NATS_URL,
    PTYWS_DATABASE_URL: databaseUrl,
    PTYWS_NATS_PREFIX: prefix,
    PTYWS_ADMIN_TOKEN: adminToken,
    PTYWS_PORT: '0',
  };
  const children: ChildProcess[] = [];
  const cleanup = async () => {
    await Promise.all(children.map(stopProcess));
    await withPg(PG_ADMIN_URL, (q) => q(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`)).catch(() => undefined);
    await dropNatsState(prefix).catch(() => undefined);
  };
  try {
    const agent = await startProcess(
      'services/pty-agent/dist/main.js',
      { ...base, PTYWS_AGENT_ID: `agent-${run}`, PTYWS_AGENT_METRICS_PORT: '0' },
      /serving instance/,
      'agent',
    );
    children.push(agent.child);
    const edges = await Promise.all(
      ['a', 'b'].map((e) =>
        startProcess(
          'services/edge/dist/main.js',
          { ...base, PTYWS_EDGE_ID: `edge-${e}-${run}` },
          /listening on http:\/\/([^:]+):(\d+)/,
          `edge-${e}`,
        ),
      ),
    );
    for (const e of edges) children.push(e.child);
    const hosts = edges.map((e) => `${e.match[1]}:${e.match[2]}`);
    const config = loadConfigFrom(base);
    return {
      config,
      host: config.host,
      port: Number(edges[0]!.match[2]),
      instanceId: config.instanceId,
      adminToken,
      httpUrl: `http://${hosts[0]}`,
      wsUrl: `ws://${hosts[0]}`,
      edgeWsUrls: hosts.map((h) => `ws://${h}`),
      stop: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
