/**
 * Output waits for most readers of the session, across edges (ARCHITECTURE, "Output waits for
 * most readers"). A reader that stops reading on edge B makes B hold the session's
 * output and keep back what arrives meanwhile (OutputFlow's HeldOutput), but the owner does not
 * stop the PTY while a reader on edge A keeps up: the program runs on, A gets every byte, and B
 * keeps back no more than its bound, so its reader is skipped forward (PTY_OUTPUT_LAGGED, then a
 * Keyframe) and is live again once it reads.
 */
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { delay, frameAfterLag, is, joinSession, longestRunOf, sequenceViolations } from '@pty-ws/testkit';
import { useFaultCluster } from './support/cluster';

jest.setTimeout(120_000);

/** Past the paused socket's kernel buffers (~10 MB), the edge's hard backlog bound and the held queue's 8 MiB. */
const FLOOD_BYTES = 24_000_000;

// 64 KiB: a paused reader is behind at once. A paused reader answers no pings.
const fc = useFaultCluster({ slowConsumerBytes: 64 * 1024, pongTimeoutMs: 60_000 });

describe('reader pace across edges', () => {
  const done = path.join(tmpdir(), `ptyws-pace-edges-${process.pid}-${Date.now()}`);
  afterAll(() => rmSync(done, { force: true }));

  it('a paused reader on one edge holds nothing while a reader on another keeps up, and resumes with a Keyframe', async () => {
    const { cluster } = fc();
    const [edgeA, edgeB] = cluster.edges as [(typeof cluster.edges)[0], (typeof cluster.edges)[0]];
    const sessionId = await fc().createShell(edgeA);
    const fast = await fc().attach(edgeA, sessionId);
    await joinSession(fast, { role: 'controller' });
    const paused = await fc().attach(edgeB, sessionId);
    await joinSession(paused, { role: 'observer' });
    await paused.settle(200, 2000);

    const fromFast = fast.mark();
    const fromPaused = paused.mark();
    paused.pauseReading();
    fast.input(`head -c ${FLOOD_BYTES} /dev/zero | tr '\\0' x; echo; echo PACED_$((3+4)); touch ${done}\n`);
    await fast.collectOutput(/PACED_7/, 90_000, fromFast);
    // The program finished although one of its readers never read: edge B's hold held nothing.
    for (let i = 0; i < 50 && !existsSync(done); i++) await delay(100);
    expect(existsSync(done)).toBe(true);
    expect(longestRunOf(fast.outputSince(fromFast), 0x78)).toBe(FLOOD_BYTES);
    expect(sequenceViolations(fast.frames)).toEqual([]);

    paused.resumeReading();
    const next = await frameAfterLag(paused, fromPaused, 30_000);
    expect(is.kind('Keyframe')(next)).toBe(true);
    const live = paused.mark();
    fast.input('echo AFTER_$((6+6))\n');
    await paused.collectOutput(/AFTER_12/, 15_000, live);
    expect(sequenceViolations(paused.frames)).toEqual([]);
  });
});
