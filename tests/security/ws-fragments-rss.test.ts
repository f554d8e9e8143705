/**
 * Unfinished fragmented WebSocket messages pin memory: uWS buffers a message's fragments until the
 * last one arrives (256 sockets, each a non-final text frame plus 63 × 64 KiB continuations, took
 * an edge from 96 to 1632 MB). Each socket may now buffer at most PTYWS_MAX_FRAME_BYTES + 64 KiB
 * (uWS closes it beyond), and an edge admits only as many sockets as PTYWS_WS_BUFFER_BUDGET
 * covers at that size, so the whole stays within the budget. The edge runs as its own process
 * (embedded mode: the standalone server; cluster mode: an edge of the test cluster) and its
 * resident set is read from /proc/<pid>/status.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { SUBPROTOCOL_JSON } from '@pty-ws/protocol';
import { http, startCluster, startStandaloneProcess, testMode, type TestServer } from '@pty-ws/testkit';
import { rssMb } from './support';

jest.setTimeout(120_000);

const MIB = 1024 * 1024;
const SOCKETS = 96;
/** What a socket tries to pin: a non-final frame and 63 continuations of 64 KiB (4 MiB). */
const FRAGMENTS = 64;
const FRAGMENT = 'a'.repeat(64 * 1024);
/** The budget under test: ~40 sockets at the default 128 KiB frame limit (+64 KiB headroom). */
const BUDGET = 8 * MIB;
/**
 * RSS over the idle baseline once every socket has sent all it could: at most the budget plus the
 * sockets' own cost. Measured here: +1 MB (the admitted sockets were closed at their limit);
 * without the limits (4 MiB per socket, every socket admitted, all still open) +401 MB.
 */
const RSS_BOUND_MB = 96;

interface Edge {
  server: Pick<TestServer, 'httpUrl' | 'adminToken'>;
  pid: number;
  attachUrl(sessionId: string): string;
  stop(): Promise<void>;
}

/** Many sockets from one token: its connection rate and count must not be what refuses them. */
const GENEROUS = { connRatePerPrincipal: 10_000, connBurstPerPrincipal: 10_000, maxConnsPerPrincipal: 10_000 };

async function startEdgeProcess(dir: string): Promise<Edge> {
  const adminToken = `ptyws_frag_${randomBytes(16).toString('hex')}`;
  if (testMode() === 'cluster') {
    const cluster = await startCluster({ ...GENEROUS, wsBufferBudget: BUDGET, adminToken });
    const edge = cluster.edges[0]!;
    return {
      server: { httpUrl: edge.httpUrl, adminToken },
      pid: edge.child.pid!,
      attachUrl: (s) => `${edge.wsUrl}/agents/${cluster.instanceId}/sessions/${s}/attach`,
      stop: () => cluster.stop(),
    };
  }
  const instance = `frag-${process.pid}`;
  const standalone = await startStandaloneProcess({
    PTYWS_INSTANCE_ID: instance,
    PTYWS_ADMIN_TOKEN: adminToken,
    PTYWS_STATE_DIR: dir,
    PTYWS_AUDIT_LOG: 'off',
    PTYWS_LOG_LEVEL: 'warn',
    PTYWS_CONN_RATE_PER_PRINCIPAL: String(GENEROUS.connRatePerPrincipal),
    PTYWS_CONN_BURST_PER_PRINCIPAL: String(GENEROUS.connBurstPerPrincipal),
    PTYWS_MAX_CONNS_PER_PRINCIPAL: String(GENEROUS.maxConnsPerPrincipal),
    PTYWS_WS_BUFFER_BUDGET: String(BUDGET),
  });
  return {
    server: { httpUrl: standalone.httpUrl, adminToken },
    pid: standalone.child.pid!,
    attachUrl: (s) => `${standalone.wsUrl}/agents/${instance}/sessions/${s}/attach`,
    stop: async () => {
      standalone.kill();
      await standalone.exited;
    },
  };
}

/** What became of one socket that tried to pin a 4 MiB unfinished message. */
type Outcome = { refused: number } | { closedAfterBytes: number } | { heldBytes: number; socket: WebSocket };

/** Opens a socket and sends fragments of one message until the server closes it or all are sent. */
async function pinFragments(url: string, token: string): Promise<Outcome> {
  const ws = new WebSocket(url, [SUBPROTOCOL_JSON], { headers: { authorization: `Bearer ${token}` } });
  const opened = await new Promise<number>((resolve) => {
    ws.once('message', () => resolve(101)); // binding_hello
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
    // Closed after the upgrade, before its hello (an edge out of room may end it so): not held.
    ws.once('close', () => resolve(-1));
  });
  if (opened === -1) return { closedAfterBytes: 0 };
  if (opened !== 101) return { refused: opened };
  let closed = false;
  ws.on('close', () => (closed = true));
  ws.on('error', () => undefined);
  let sent = 0;
  for (let i = 0; i < FRAGMENTS && !closed; i++) {
    await new Promise<void>((resolve) => ws.send(FRAGMENT, { fin: false }, () => resolve()));
    sent += FRAGMENT.length;
  }
  // A ping answered means the server has read everything sent before it.
  if (!closed)
    await new Promise<void>(
      (resolve) => (ws.once('pong', () => resolve()), ws.once('close', () => resolve()), ws.ping()),
    );
  return closed ? { closedAfterBytes: sent } : { heldBytes: sent, socket: ws };
}

describe('unfinished fragmented WebSocket messages', () => {
  let dir: string;
  let edge: Edge;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pty-ws-frag-'));
    edge = await startEdgeProcess(dir);
  });
  afterAll(async () => {
    await edge?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`${SOCKETS} sockets each pinning a 4 MiB message stay within the budget`, async () => {
    const created = await http(edge.server as TestServer, 'POST', '/api/v1/sessions', { json: { argv: ['/bin/cat'] } });
    expect(created.status).toBe(201);
    const url = edge.attachUrl((created.body as { session_id: string }).session_id);
    const baseline = rssMb(edge.pid);
    const outcomes = await Promise.all(
      Array.from({ length: SOCKETS }, () => pinFragments(url, edge.server.adminToken)),
    );
    const peak = rssMb(edge.pid) - baseline;
    const refused = outcomes.filter((o) => 'refused' in o);
    const held = outcomes.filter((o): o is Extract<Outcome, { heldBytes: number }> => 'heldBytes' in o);
    for (const o of held) o.socket.terminate();
    // Past the budget upgrades are refused (503); no socket kept more than its frame limit + headroom.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((o) => o.refused === 503)).toBe(true);
    expect(held).toEqual([]);
    expect(peak).toBeLessThan(RSS_BOUND_MB);
  });
});
