/**
 * Starts a real server for a test. The mode comes from PTYWS_TEST_MODE so the same suite can
 * later run against a cluster; only `embedded` (one process, in-memory adapters) exists now.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from '@pty-ws/config';
import { startCluster } from './cluster';

/** What the suite needs from a running node (structurally the standalone `RunningNode`). */
export interface NodeHandle {
  config: Config;
  host: string;
  port: number;
  instanceId: string;
  adminToken: string;
  httpUrl: string;
  wsUrl: string;
  /** The gRPC server's port, when the test asked for one (`grpcPort`). */
  grpcPort?: number;
  /** Cluster mode: every edge's gRPC `host:port`. */
  edgeGrpcAddresses?: string[];
  stop(): Promise<void>;
}

export type TestMode = 'embedded' | 'cluster';

export interface TestServer {
  readonly mode: TestMode;
  readonly node: NodeHandle;
  readonly httpUrl: string;
  readonly wsUrl: string;
  readonly instanceId: string;
  readonly adminToken: string;
  /**
   * gRPC `host:port` of each edge (one in embedded mode); empty unless the test asked for gRPC
   * with `{ grpcPort: await freePort() }` (or any non-zero port).
   */
  readonly grpcAddresses: string[];
  /** `ws://…/agents/{instance_id}/sessions/{session_id}/attach` */
  attachUrl(sessionId: string, instanceId?: string): string;
  stop(): Promise<void>;
}

let counter = 0;

/** Small, fast tunables; each test file overrides what it exercises. */
export function testDefaults(): Partial<Config> {
  counter += 1;
  return {
    host: '127.0.0.1',
    port: 0,
    instanceId: `inst-${process.pid}-${counter}`,
    logLevel: process.env['PTYWS_TEST_LOG_LEVEL'] ?? 'silent',
    shell: '/bin/sh',
    pingIntervalMs: 500,
    // Long: on a loaded CI box a test process can stay off the CPU for seconds, its client's pong
    // late, and the edge reaps a healthy socket (close 1006, no frame). Keepalive tests set their own.
    pongTimeoutMs: 30_000,
    // Off unless a test asks: the default port would clash between parallel servers.
    grpcPort: 0,
  };
}

export function testMode(): TestMode {
  const mode = process.env['PTYWS_TEST_MODE'] ?? 'embedded';
  if (mode !== 'embedded' && mode !== 'cluster') {
    throw new Error(`PTYWS_TEST_MODE=${mode} is not supported (embedded or cluster)`);
  }
  return mode;
}

/** The structured logger the service writes to (structurally the edge `Logger`). */
interface LoggerLike {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

type StartNode = (
  overrides: Partial<Config>,
  opts?: { env?: Record<string, string | undefined>; logger?: LoggerLike; tracing?: unknown },
) => Promise<NodeHandle>;

/** What a test may hand the embedded node besides configuration. */
export interface TestServerOptions {
  /** Receives the server's log lines (default: none, or stderr with PTYWS_TEST_LOG_LEVEL). */
  logger?: LoggerLike;
  /** A started `Tracing` (@pty-ws/telemetry startTracing): the agent half reports as its own service. */
  tracing?: unknown;
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** With PTYWS_TEST_LOG_LEVEL=debug|info|warn|error the server's logs go to stderr. */
function testLogger(): LoggerLike | undefined {
  const level = process.env['PTYWS_TEST_LOG_LEVEL'];
  const min = LEVELS.indexOf(level as (typeof LEVELS)[number]);
  if (min < 0) return undefined;
  const at =
    (l: (typeof LEVELS)[number]) =>
    (obj: object, msg: string): void => {
      if (LEVELS.indexOf(l) >= min) process.stderr.write(`[server ${l}] ${msg} ${JSON.stringify(obj)}\n`);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function loadStartNode(): StartNode {
  // Resolved at run time so the testkit builds before (and independently of) the service.
  const moduleName = '@pty-ws/standalone';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(moduleName) as { startNode?: unknown };
  if (typeof mod.startNode !== 'function') throw new Error(`${moduleName} does not export startNode`);
  return mod.startNode as StartNode;
}

export async function startTestServer(
  overrides: Partial<Config> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  const mode = testMode();
  if (mode === 'cluster') return startClusterTestServer({ ...testDefaults(), ...overrides });
  // An empty environment: the caller's PTYWS_* variables must not leak into the server under test.
  const logger = options.logger ?? testLogger();
  // Each server archives transcripts in a directory of its own, removed when it stops.
  const transcriptDir = overrides.transcriptDir ?? mkdtempSync(path.join(tmpdir(), 'ptyws-transcripts-'));
  // … and keeps its state (audit.jsonl, the push outbox, multiplexer sockets) in another: test
  // servers never append to the user's state dir nor to each other's files. Short, under /tmp:
  // the state dir is limited to 64 characters (socket paths).
  const ownState = mkdtempSync('/tmp/ptyws-node-');
  const stateDir = overrides.stateDir ?? ownState;
  const auditLog = overrides.auditLog ?? path.join(ownState, 'audit.jsonl');
  const node = await loadStartNode()(
    { ...testDefaults(), transcriptDir, stateDir, auditLog, ...overrides },
    { env: {}, ...(logger ? { logger } : {}), ...(options.tracing ? { tracing: options.tracing } : {}) },
  );
  const wsUrl = node.wsUrl.replace(/\/$/, '');
  const httpUrl = node.httpUrl.replace(/\/$/, '');
  let stopping: Promise<void> | undefined;
  return {
    mode,
    node,
    httpUrl,
    wsUrl,
    instanceId: node.instanceId,
    adminToken: node.adminToken,
    grpcAddresses: node.grpcPort ? [`${node.host}:${node.grpcPort}`] : [],
    attachUrl: (sessionId, instanceId = node.instanceId) =>
      `${wsUrl}/agents/${encodeURIComponent(instanceId)}/sessions/${encodeURIComponent(sessionId)}/attach`,
    stop: () =>
      (stopping ??= node.stop().finally(() => {
        if (overrides.transcriptDir === undefined) rmSync(transcriptDir, { recursive: true, force: true });
        rmSync(ownState, { recursive: true, force: true });
      })),
  };
}

/** Cluster mode: attach URLs alternate between the two edges, REST goes to the first. */
async function startClusterTestServer(overrides: Partial<Config>): Promise<TestServer> {
  const { logLevel: _ignored, ...rest } = overrides;
  const cluster = await startCluster({ ...rest, logLevel: 'warn' });
  let next = 0;
  let stopping: Promise<void> | undefined;
  return {
    mode: 'cluster',
    node: cluster,
    httpUrl: cluster.httpUrl,
    wsUrl: cluster.wsUrl,
    instanceId: cluster.instanceId,
    adminToken: cluster.adminToken,
    grpcAddresses: cluster.edgeGrpcAddresses,
    attachUrl: (sessionId, instanceId = cluster.instanceId) => {
      const base = cluster.edgeWsUrls[next++ % cluster.edgeWsUrls.length];
      return `${base}/agents/${encodeURIComponent(instanceId)}/sessions/${encodeURIComponent(sessionId)}/attach`;
    },
    stop: () => (stopping ??= cluster.stop()),
  };
}
