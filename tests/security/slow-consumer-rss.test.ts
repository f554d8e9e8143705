/**
 * Memory per connection stays bounded under a flood (issue "Slow consumers"): `yes` floods a
 * session while one observer never reads. The edge runs as its own process (embedded mode: the
 * standalone server; cluster mode: an edge of the test cluster) and its resident set, read from
 * /proc/<pid>/status, must stay under the baseline + RSS_BOUND_MB for the whole flood, while a
 * normal client keeps receiving output. Once the stalled observer reads again it gets
 * PTY_OUTPUT_LAGGED followed by a Keyframe.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { SUBPROTOCOL_JSON, encodeBase64, newId } from '@pty-ws/protocol';
import {
  TestClient,
  delay,
  http,
  is,
  joinSession,
  sessionFrameOf,
  startCluster,
  startStandaloneProcess,
  testMode,
  type TestServer,
} from '@pty-ws/testkit';
import { shell } from '../conformance/support';

/** The stated bound: the edge may grow by at most this much over its idle, attached baseline. */
const RSS_BOUND_MB = 150;
const FLOOD_MS = 20_000;

function rssMb(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

/** A controller that counts Output bytes and keeps nothing (the flood would fill the test's heap). */
class CountingClient {
  outputBytes = 0;
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (text.includes('"kind":"Output"')) this.outputBytes += data.length;
    });
  }

  static async join(url: string, token: string): Promise<CountingClient> {
    const ws = new WebSocket(url, [SUBPROTOCOL_JSON], { headers: { authorization: `Bearer ${token}` } });
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve()); // binding_hello
      ws.once('error', reject);
    });
    const c = new CountingClient(ws);
    c.send('pty.join_session', { role: 'controller' });
    return c;
  }

  send(op: string, payload: Record<string, unknown>): void {
    this.ws.send(JSON.stringify({ op, id: newId(), ts: new Date().toISOString(), payload }));
  }

  type(text: string): void {
    this.send('pty.session_input', { data: encodeBase64(Buffer.from(text, 'utf8')) });
  }

  close(): void {
    this.ws.terminate();
  }
}

interface Edge {
  server: Pick<TestServer, 'httpUrl' | 'adminToken'>;
  /** The process whose memory is measured. */
  pid: number;
  /** Attach URLs: the stalled observer's edge (measured) and the normal client's. */
  slowUrl(sessionId: string): string;
  normalUrl(sessionId: string): string;
  stop(): Promise<void>;
}

/** Bounded log (no 24 h retention of a flood) so only the slow-consumer path can grow memory. */
const LIMITS = { PTYWS_REPLAY_FRAMES: '200', PTYWS_REPLAY_RETENTION_S: '0', PTYWS_SLOW_CONSUMER_BYTES: '1048576' };

async function startEdgeProcess(dir: string): Promise<Edge> {
  const instance = `rss-${process.pid}`;
  const adminToken = `ptyws_rss_${randomBytes(16).toString('hex')}`;
  if (testMode() === 'cluster') {
    const cluster = await startCluster({ replayFrames: 200, replayRetentionS: 0, adminToken });
    const [a, b] = cluster.edges;
    const url = (base: string, s: string) => `${base}/agents/${cluster.instanceId}/sessions/${s}/attach`;
    return {
      server: { httpUrl: cluster.httpUrl, adminToken },
      pid: a!.child.pid!,
      slowUrl: (s) => url(a!.wsUrl, s),
      normalUrl: (s) => url(b!.wsUrl, s),
      stop: () => cluster.stop(),
    };
  }
  const standalone = await startStandaloneProcess({
    ...LIMITS,
    PTYWS_INSTANCE_ID: instance,
    PTYWS_ADMIN_TOKEN: adminToken,
    PTYWS_STATE_DIR: dir,
    PTYWS_AUDIT_LOG: 'off',
    PTYWS_LOG_LEVEL: 'warn',
  });
  const url = (s: string) => `${standalone.wsUrl}/agents/${instance}/sessions/${s}/attach`;
  return {
    server: { httpUrl: standalone.httpUrl, adminToken },
    pid: standalone.child.pid!,
    slowUrl: url,
    normalUrl: url,
    stop: async () => {
      standalone.kill();
      await standalone.exited;
    },
  };
}

describe('slow consumer under a flood', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ptyws-rss-'));
  let edge: Edge;
  beforeAll(async () => {
    edge = await startEdgeProcess(dir);
  });
  afterAll(async () => {
    await edge?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps the edge's RSS under baseline + ${RSS_BOUND_MB} MB while an observer never reads`, async () => {
    const created = await http(edge.server as TestServer, 'POST', '/api/v1/sessions', { json: shell() });
    expect(created.status).toBe(201);
    const sessionId = (created.body as { session_id: string }).session_id;
    const normal = await CountingClient.join(edge.normalUrl(sessionId), edge.server.adminToken);
    const slow = await TestClient.connect(edge.slowUrl(sessionId), { token: edge.server.adminToken });
    await slow.hello();
    await joinSession(slow, { role: 'observer' });
    const from = slow.mark();
    slow.pauseReading(); // never reads again until the flood is over

    await delay(500);
    const baseline = rssMb(edge.pid);
    normal.type('yes 0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\n');

    let peak = baseline;
    const received: number[] = [];
    const start = Date.now();
    // Output received by the normal client in each 5-second window of the flood.
    let windowStart = normal.outputBytes;
    let window = 0;
    while (Date.now() - start < FLOOD_MS) {
      await delay(500);
      peak = Math.max(peak, rssMb(edge.pid));
      const now = Math.floor((Date.now() - start) / 5000);
      if (now !== window) {
        received.push(normal.outputBytes - windowStart);
        windowStart = normal.outputBytes;
        window = now;
      }
    }
    normal.type('\x03'); // Ctrl-C ends `yes`
    process.stderr.write(
      `slow-consumer RSS (${testMode()}): baseline ${baseline.toFixed(1)} MB, peak ${peak.toFixed(1)} MB, ` +
        `normal client received ${(normal.outputBytes / 1e6).toFixed(1)} MB in ${FLOOD_MS / 1000} s\n`,
    );
    expect(peak - baseline).toBeLessThan(RSS_BOUND_MB);
    // The normal client kept receiving throughout: output arrived in every 5-second window.
    expect(received.length).toBeGreaterThanOrEqual(3);
    for (const bytes of received) expect(bytes).toBeGreaterThan(0);

    // The stalled observer reads again: lag notice, then a Keyframe (extension server frames).
    await delay(500);
    slow.resumeReading();
    const lagged = await slow.waitFor((r) => sessionFrameOf(r, 'Error')?.code === 'PTY_OUTPUT_LAGGED', 20_000, from);
    const next = await slow.waitFor(is.any(), 5000, slow.frames.indexOf(lagged) + 1);
    expect(is.kind('Keyframe')(next)).toBe(true);
    expect(slow.isOpen).toBe(true);
    slow.terminate();
    normal.close();
  }, 90_000);
});
