/**
 * Output goes at the pace of most of its readers (ARCHITECTURE, "Output waits for most
 * readers"): while most readers of a session are behind (here: its sole reader), the owner stops reading the PTY and the
 * program waits, as on a slow terminal, so a reader that is merely slow gets every byte instead of
 * being skipped forward. A reader that drains nothing for a while counts as stuck: the program
 * runs on and that reader is skipped forward as before (PTY_OUTPUT_LAGGED, then a Keyframe).
 */
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  delay,
  frameAfterLag,
  is,
  joinSession,
  longestRunOf,
  loopbackBufferBytes,
  sequenceViolations,
  sessionFrameOf,
  type TestClient,
} from '@pty-ws/testkit';
import { shell, useServer } from './support';

/**
 * Bytes of `x` the slow reader's flood prints: past what the kernel's socket buffers hold on
 * loopback for a reader that never read fast (~10 MB: the receive buffer grows only as it is
 * read), so the server's own backlog has to grow.
 */
const FLOOD_BYTES = 12_000_000;
/**
 * The stuck reader's: past those buffers at their largest (it read at full speed before it
 * paused, so its receive buffer may have grown: 24 MB once went into the kernel entirely here)
 * and the edge's hard cap per socket together.
 */
const STUCK_FLOOD_BYTES = Math.max(24_000_000, loopbackBufferBytes() + 12_000_000);

/** Prints `bytes` of `x` (no newline: the PTY adds nothing), then a marker, then touches `done`. */
function flood(done: string, bytes = FLOOD_BYTES): string {
  return `head -c ${bytes} /dev/zero | tr '\\0' x; echo; echo PACED_$((3+4)); touch ${done}\n`;
}

const lagged = (c: TestClient, from: number) =>
  c.frames.slice(from).filter((r) => sessionFrameOf(r, 'Error')?.code === 'PTY_OUTPUT_LAGGED');

/** The longest run of `x` in the output: the flood, whatever else the terminal echoed. */
const floodRun = (b: Buffer): number => longestRunOf(b, 0x78);

describe('output waits for the fastest reader', () => {
  // 64 KiB: a reader pausing for a second is far past the slow-consumer threshold, and would be
  // skipped forward if the program did not wait for it. A paused reader answers no pings.
  const ctx = useServer({ slowConsumerBytes: 64 * 1024, pongTimeoutMs: 60_000 });
  const marks: string[] = [];
  afterAll(() => marks.forEach((f) => rmSync(f, { force: true })));

  function doneFile(tag: string): string {
    const f = path.join(tmpdir(), `ptyws-pace-${process.pid}-${tag}-${Date.now()}`);
    marks.push(f);
    return f;
  }

  it('a sole reader that keeps pausing gets every byte of a 12 MB flood, in order, never skipped', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const reader = await ctx().attach(s);
    await joinSession(reader, { role: 'controller' });
    const from = reader.mark();
    reader.input(flood(doneFile('slow')));
    // Reads in bursts: 800 ms paused (three times the slow-consumer grace), 300 ms reading.
    let done = false;
    const collected = reader.collectOutput(/PACED_7/, 90_000, from).finally(() => (done = true));
    // Skipped forward, the reader would never see the whole flood: stop at the first sign of it.
    while (!done && lagged(reader, from).length === 0) {
      reader.pauseReading();
      await delay(800);
      reader.resumeReading();
      await delay(300);
    }
    expect(lagged(reader, from)).toEqual([]);
    await collected;
    expect(floodRun(reader.outputSince(from))).toBe(FLOOD_BYTES);
    expect(sequenceViolations(reader.frames)).toEqual([]);
  }, 120_000);

  it('a sole reader that stops reading holds the program only for a while; it is skipped forward and resumes with a Keyframe', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const reader = await ctx().attach(s);
    await joinSession(reader, { role: 'controller' });
    const from = reader.mark();
    const done = doneFile('stuck');
    reader.input(flood(done, STUCK_FLOOD_BYTES));
    await delay(200); // the input is on its way before the socket stops being read
    reader.pauseReading();
    const deadline = Date.now() + 60_000;
    while (!existsSync(done) && Date.now() < deadline) await delay(100);
    expect(existsSync(done)).toBe(true); // the program finished although its only reader never read
    reader.resumeReading();

    const next = await frameAfterLag(reader, from, 30_000);
    expect(is.kind('Keyframe')(next)).toBe(true);
    const live = reader.mark();
    reader.input('echo AFTER_$((6+6))\n');
    await reader.collectOutput(/AFTER_12/, 10_000, live);
    expect(sequenceViolations(reader.frames)).toEqual([]);
  }, 120_000);
});
