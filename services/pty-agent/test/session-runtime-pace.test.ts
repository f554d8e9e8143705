import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileTranscriptArchive } from '@pty-ws/adapters-memory';
import type { JoinRequest, PtyProcess } from '@pty-ws/ports';
import { NodePtyHost, type SessionRuntime } from '@pty-ws/pty-agent';
import { Metrics } from '@pty-ws/telemetry';
import { delay, waitUntil } from '@pty-ws/testkit';
import { sessionRecord, startRuntime } from './runtime-fixture';

/**
 * The owner's side of "output waits for most readers" on a real PTY: an edge's report that
 * all its readers are behind stops the PTY being read (and shows in ptyws_output_held_sessions),
 * another edge's member lets output flow, the end of the session releases the hold.
 */
const host = new NodePtyHost();
let n = 0;

type RuntimeOptions = Parameters<typeof startRuntime>[2];

function start(
  metrics: Metrics,
  options: RuntimeOptions = {},
): { runtime: SessionRuntime; proc: PtyProcess & { paused?: boolean } } {
  const record = sessionRecord(`pace-${process.pid}-${++n}`, {
    argv: ['/bin/cat'],
    cwd: '/tmp',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TERM: 'xterm-256color' },
    size: { cols: 80, rows: 24 },
    backend: 'native',
    sessionClass: 'direct',
  });
  const proc = host.spawn(record.sessionId, record.spec) as PtyProcess & { paused?: boolean };
  return { runtime: startRuntime(record, proc, { metrics, ...options }).runtime, proc };
}

const member = (clientId: string, edgeId: string): JoinRequest => ({
  clientId,
  edgeId,
  principalId: 'p',
  canControl: true,
  requestedRole: 'controller',
});

async function held(metrics: Metrics, reason: string): Promise<number | undefined> {
  const m = await metrics.registry.getSingleMetric('ptyws_output_held_sessions')!.get();
  return m.values.find((v) => v.labels['reason'] === reason)?.value;
}

describe('SessionRuntime.pace', () => {
  it('holds the PTY while every edge with members says its readers are behind', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    const { runtime, proc } = start(metrics);
    try {
      await runtime.join(member('a', 'edge-1'));
      expect(await held(metrics, 'readers')).toBe(0);

      // The answer says whether output is held now: what the edge holds back for its readers.
      expect(runtime.pace('edge-1', true)).toBe(true);
      expect(proc.paused).toBe(true);
      expect(await held(metrics, 'readers')).toBe(1);

      await runtime.join(member('b', 'edge-2')); // a reader elsewhere, caught up
      expect(proc.paused).toBe(false);
      expect(await held(metrics, 'readers')).toBe(0);
      expect(runtime.pace('edge-1', true)).toBe(false); // edge-1 still behind, but the program runs on

      expect(runtime.pace('edge-2', true)).toBe(true); // edge-1's report still stands
      expect(proc.paused).toBe(true);
      expect(runtime.pace('edge-1', false)).toBe(false);
      expect(proc.paused).toBe(false);

      runtime.pace('edge-1', true);
      await runtime.leave('b'); // edge-2's member left: edge-1's report decides alone
      expect(proc.paused).toBe(true);
      runtime.releaseEdge('edge-1');
      expect(proc.paused).toBe(false);
      expect(await held(metrics, 'readers')).toBe(0);
    } finally {
      await runtime.kill();
    }
  });

  it('a session that ends while held is held no more', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    const { runtime } = start(metrics);
    await runtime.join(member('a', 'edge-1'));
    runtime.pace('edge-1', true);
    expect(await held(metrics, 'readers')).toBe(1);
    await runtime.kill();
    await runtime.whenClosed();
    expect(await held(metrics, 'readers')).toBe(0);
    expect(runtime.pace('edge-1', true)).toBe(false); // a late report for a closed session changes nothing
    expect(await held(metrics, 'readers')).toBe(0);
  });

  it('the transcript archive does not take a hold for the end of a burst: it writes once output flows and pauses', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ptyws-pace-archive-'));
    const archive = new FileTranscriptArchive(dir);
    const quietMs = 1000; // far more than the wait between the output and the hold, even under load
    const { runtime } = start(new Metrics({ defaultMetrics: false }), {
      archive,
      archiver: {
        chunkFrames: 4,
        chunkBytes: 1 << 20,
        flushMs: 60_000,
        quietMs,
        maxDeferMs: 60_000,
        maxDeferBytes: 1 << 30,
        maxHeldBytes: 1 << 30,
      },
    });
    const archivedThrough = async (): Promise<number> => (await archive.stats(runtime.record.sessionId)).lastSeq;
    try {
      await runtime.join(member('a', 'edge-1'));
      const before = runtime.sequencer.lastSeq;
      for (let i = 0; i < 8; i++) {
        runtime.input('a', new TextEncoder().encode(`line ${i}\n`)); // echoed by the tty and by cat
        await delay(10);
      }
      await waitUntil(() => runtime.sequencer.lastSeq >= before + 4, 5000, 'a full chunk of output');
      // Every reader is behind: the PTY waits for them. The edge repeats the report while it holds
      // (PACE_REFRESH_MS), else the owner lets it lapse after PACE_REPORT_TTL_MS.
      for (const heldSince = Date.now(); Date.now() - heldSince < 2 * quietMs;) {
        runtime.pace('edge-1', true);
        await delay(200);
      }
      expect(await archivedThrough()).toBe(0); // quiet, but only because output was held
      runtime.pace('edge-1', false); // output flows again, then pauses: now the burst has ended
      await waitUntil(async () => (await archivedThrough()) > 0, 5000, 'the chunks written');
    } finally {
      await runtime.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
