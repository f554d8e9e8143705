/**
 * Memory after churn: a closed session keeps what replay and the transcript need and nothing else.
 * Sessions that printed ~400 KB each are attached to, then deleted; once the agent's janitor has
 * settled them (archived whole), a heap snapshot of the single-node process (V8 collects before it
 * writes one) holds no runtime, terminal mirror, hub or archiver of theirs, and the heap with its
 * Buffers' bytes is back near where it was after the first round. Before the fix every closed
 * session kept its archiver and up to 8 MiB of log entries in memory until its TTL (a day):
 * ~500 churned sessions took the process from ~110 to ~700 MB.
 *
 * Single-node only: in cluster mode the log is JetStream and the agent holds no entries itself.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { SERVICE_NODE_FLAGS } from '@pty-ws/config';
import { EXTENSION_URI, SUBPROTOCOL_JSON, clientFrame } from '@pty-ws/protocol';
import { startStandaloneProcess, testMode, type StandaloneProcess } from '@pty-ws/testkit';
import { snapshotFlags, takeSnapshot, type HeapSummary } from './heap-snapshot';

jest.setTimeout(240_000);

const ROUNDS = 5;
const PER_ROUND = 12;
/** Output per session: base64 of this many random bytes (~4/3 of it). */
const OUTPUT = 300_000;
const MARK = 'CHURN-DONE';
/**
 * Heap growth (objects and Buffer bytes) allowed from the first round to the last: compiled code,
 * the registry's records of closed sessions. Measured: +2 to +4 MB; before the fix +21 MB (48
 * sessions × ~430 KB of log entries still in memory).
 */
const GROWTH_BOUND_MB = 10;
/** Classes a closed session must not leave behind. */
const PER_SESSION = ['SessionRuntime', 'TerminalState', 'SessionHub', 'TranscriptArchiver', 'Keyframes'];

const describeEmbedded = testMode() === 'embedded' ? describe : describe.skip;

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}

describeEmbedded('memory after session churn (single node)', () => {
  let dir: string;
  let svc: StandaloneProcess;
  const auth = () => ({ Authorization: `Bearer ${svc.token}`, 'Content-Type': 'application/json' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pty-ws-churn-'));
    svc = await startStandaloneProcess(
      {
        PTYWS_INSTANCE_ID: `churn-${process.pid}`,
        PTYWS_STATE_DIR: dir,
        PTYWS_AUDIT_LOG: 'off',
        PTYWS_LOG_LEVEL: 'warn',
        PTYWS_API_RATE_PER_PRINCIPAL: '100000',
        PTYWS_API_BURST_PER_PRINCIPAL: '100000',
      },
      [...SERVICE_NODE_FLAGS, ...snapshotFlags(dir)],
    );
  });
  afterAll(async () => {
    svc?.kill();
    await svc?.exited;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Creates a session that prints, watches it print to the end, deletes it. */
  async function oneSession(): Promise<void> {
    const res = await fetch(`${svc.httpUrl}/api/v1/sessions`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({
        argv: ['/bin/sh', '-c', `head -c ${OUTPUT} /dev/urandom | base64; echo ${MARK}; exec cat`],
      }),
    });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { session_id: string }).session_id;
    const ws = new WebSocket(`${svc.wsUrl}/agents/${svc.instanceId}/sessions/${id}/attach`, [SUBPROTOCOL_JSON], {
      headers: { Authorization: `Bearer ${svc.token}` },
    });
    let seen = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${MARK} from ${id}`)), 60_000);
      ws.on('error', reject);
      ws.on('message', (data: Buffer) => {
        const f = JSON.parse(data.toString('utf8')) as { op: string; payload?: { kind?: string; data?: string } };
        // From the log's start: the output may be printed before the join.
        const join = clientFrame(
          'pty.join_session',
          { role: 'observer' },
          { replay_from: 0, extensions: [EXTENSION_URI] },
        );
        if (f.op === 'binding_hello') ws.send(JSON.stringify(join));
        if (f.payload?.kind === 'Output' && f.payload.data)
          seen = (seen + Buffer.from(f.payload.data, 'base64').toString('latin1')).slice(-64);
        if (seen.includes(MARK)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    ws.close();
    const del = await fetch(`${svc.httpUrl}/api/v1/sessions/${id}`, { method: 'DELETE', headers: auth() });
    expect(del.status).toBeLessThan(300);
  }

  /** A round of sessions, then a snapshot once the janitor has settled them all. */
  async function round(): Promise<HeapSummary> {
    await Promise.all(Array.from({ length: PER_ROUND }, () => oneSession()));
    // The janitor sweeps once a second: closed, archived whole, let go.
    let snap: HeapSummary;
    for (let tries = 0; ; tries++) {
      await new Promise((r) => setTimeout(r, 2500));
      snap = await takeSnapshot(svc.child, dir);
      const left = PER_SESSION.filter((c) => (snap.objects.get(c) ?? 0) > 0);
      if (left.length === 0 || tries >= 3) return snap;
    }
  }

  it('leaves no per-session state behind, and the heap with its buffers back near its start', async () => {
    const first = await round();
    const rssFirst = rssMb(svc.child.pid!);
    let last = first;
    for (let i = 1; i < ROUNDS; i++) last = await round();
    const rssLast = rssMb(svc.child.pid!);
    const held = Object.fromEntries(PER_SESSION.map((c) => [c, last.objects.get(c) ?? 0]));
    const growthMb = (last.totalBytes - first.totalBytes) / 1024 / 1024;
    process.stderr.write(
      `churn: ${ROUNDS * PER_ROUND} sessions; heap ${(first.totalBytes / 1048576).toFixed(1)} -> ${(last.totalBytes / 1048576).toFixed(1)} MB; RSS ${rssFirst.toFixed(0)} -> ${rssLast.toFixed(0)} MB; held ${JSON.stringify(held)}\n`,
    );
    expect(held).toEqual(Object.fromEntries(PER_SESSION.map((c) => [c, 0])));
    expect(growthMb).toBeLessThan(GROWTH_BOUND_MB);
  });
});
