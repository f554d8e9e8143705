/**
 * Replay goes at the reader's pace: a reader catching up from the log is sent frames as its socket
 * takes them, never skipped past the end of what it asked for, and never left without a word.
 * - Readers joining a closed multi-MB session with `replay_from: 0` each get every frame through
 *   `Closed`, then binding_goodbye session_closed (the goodbye is where a client stops: a replay
 *   cut before it loses the tail without knowing).
 * - A reader replaying a live session from 0 while its output continues gets every frame in order,
 *   through `Closed` when the session ends during its catch-up.
 * - A reader that stops reading during the replay of a live session is skipped forward: once it
 *   reads again it gets PTY_OUTPUT_LAGGED, then a Keyframe, then the rest through `Closed`.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUBPROTOCOL_BINARY, SUBPROTOCOL_JSON } from '@pty-ws/protocol';
import { http, type TestContext } from '@pty-ws/testkit';
import { useServer } from './support';
import { numberedLines } from './support-lean-member';
import { ReplayReader } from './support-replay-reader';

const READERS = 4;
/** Paced output after the bulk: 16 blocks of this, one every 0.1 s. */
const TAIL_BLOCK = 128 * 1024;
const TAIL_BLOCKS = 16;
/** Longer than a stalled replay is waited for (REPLAY_STALL_MS) before its reader is skipped forward. */
const STALL_PAUSE_MS = 8000;

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A session printing `script`'s output with the PTY passing bytes unchanged; its attach URL and token. */
async function rawSession(ctx: TestContext, script: string): Promise<{ id: string; url: string; token: string }> {
  const s = await ctx.createSession({ argv: ['/bin/sh', '-c', `stty -echo -opost; ${script}`], cols: 120, rows: 30 });
  return { id: s.session_id, url: ctx.server.attachUrl(s.session_id), token: ctx.server.adminToken };
}

async function sessionState(ctx: TestContext, id: string): Promise<string | undefined> {
  const r = await http(ctx.server, 'GET', `/api/v1/sessions/${id}`);
  return (r.body as { state?: string }).state;
}

async function observers(ctx: TestContext, id: string): Promise<number | undefined> {
  const r = await http(ctx.server, 'GET', `/api/v1/sessions/${id}`);
  return (r.body as { members?: { observers?: number } }).members?.observers;
}

/**
 * Every Output byte, every sequence through `Closed`, no lag, then the goodbye. Compared as one
 * summary, so a failure shows all of it: where the reader stopped, whether it saw `Closed`, and
 * how its socket ended tell a log that lacks the bytes from a replay that was cut.
 */
function expectWholeReplay(r: ReplayReader, expected: Buffer): void {
  expect(r.summary()).toEqual({
    verified: expected.length,
    lastSeq: r.closedSeq ?? 'a Closed frame',
    closedSeq: expect.any(Number),
    closedReason: 'normal',
    lagged: false,
    goodbye: { reason: 'session_closed' },
    closeCode: 1000,
    problems: [],
    errors: [],
    outputFrames: expect.any(Number),
    emptyOutputs: 0,
  });
}

describe('replay paced by the reader', () => {
  const ctx = useServer({ pongTimeoutMs: 120_000 });
  const dir = mkdtempSync(join(tmpdir(), 'ptyws-replay-paced-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // ~22 MB: more than a socket's buffers and the edge's backlog bound hold together.
  const body = Buffer.concat([numberedLines('a'), numberedLines('b')]);
  const bodyFile = join(dir, 'body.txt');
  writeFileSync(bodyFile, body);
  const tail = numberedLines('t').subarray(0, TAIL_BLOCK * TAIL_BLOCKS);
  const tailFile = join(dir, 'tail.txt');
  writeFileSync(tailFile, tail);
  const pacedTail = `for i in $(seq 0 ${TAIL_BLOCKS - 1}); do dd if='${tailFile}' bs=${TAIL_BLOCK} skip=$i count=1 status=none; sleep 0.1; done`;

  it(`${READERS} readers of a closed multi-MB session get every frame through Closed`, async () => {
    const s = await rawSession(ctx(), `cat '${bodyFile}'`);
    await until('the session to close', async () => (await sessionState(ctx(), s.id)) === 'closed');
    const readers: ReplayReader[] = [];
    try {
      for (let i = 0; i < READERS; i++) {
        const protocol = i % 2 === 0 ? SUBPROTOCOL_BINARY : SUBPROTOCOL_JSON;
        readers.push(new ReplayReader(s.url, s.token, { protocol, replayFrom: 0, expected: body }));
      }
      await Promise.all(readers.map((r) => r.ended));
      for (const r of readers) expectWholeReplay(r, body);
    } finally {
      for (const r of readers) r.terminate();
    }
  }, 120_000);

  /** A session printing the body, then waiting for its gate to open, then running `then`; once the body is printed. */
  async function gatedSession(
    name: string,
    then: string,
  ): Promise<{ id: string; url: string; token: string; open(): void }> {
    const started = join(dir, `${name}-started`);
    const gate = join(dir, `${name}-gate`);
    const waitForGate = `while [ ! -e '${gate}' ]; do sleep 0.05; done`;
    const s = await rawSession(ctx(), `cat '${bodyFile}'; : > '${started}'; ${waitForGate}; ${then}`);
    await until('the bulk to be printed', () => existsSync(started));
    return { ...s, open: () => writeFileSync(gate, '') };
  }

  it('a reader replaying a live session from 0 while output continues gets every frame in order', async () => {
    const s = await gatedSession('live', pacedTail);
    const expected = Buffer.concat([body, tail]);
    const reader = ReplayReader.binary(s.url, s.token, { replayFrom: 0, expected });
    try {
      s.open(); // the paced output runs while the reader catches up
      await reader.ended;
      expectWholeReplay(reader, expected);
    } finally {
      reader.terminate();
    }
  }, 120_000);

  it('a reader still catching up when the session closes gets every frame through Closed, then the goodbye', async () => {
    const s = await gatedSession('closing', 'exit 0');
    // Not reading while the session ends: its replay is far from the Closed when that is delivered.
    const reader = ReplayReader.binary(s.url, s.token, { replayFrom: 0, expected: body, pauseAfterJoinMs: Infinity });
    try {
      await until('the reader to be a member', async () => (await observers(ctx(), s.id)) === 1);
      s.open();
      await until('the session to close', async () => (await sessionState(ctx(), s.id)) === 'closed');
      reader.resume();
      await reader.ended;
      expectWholeReplay(reader, body);
    } finally {
      reader.terminate();
    }
  }, 120_000);

  it('a reader that stops reading during the replay of a live session gets PTY_OUTPUT_LAGGED and a Keyframe', async () => {
    const s = await gatedSession('stall', pacedTail);
    const expected = Buffer.concat([body, tail]);
    const reader = ReplayReader.binary(s.url, s.token, { replayFrom: 0, expected, pauseAfterJoinMs: STALL_PAUSE_MS });
    try {
      await until('the lag to be told', () => reader.lagged || reader.closeCode !== undefined);
      s.open();
      await reader.ended;
      expect(reader.problems).toEqual([]);
      expect(reader.afterLag.slice(0, 2)).toEqual(['lagged', 'Keyframe']);
      expect(reader.closedSeq).toBeDefined();
      expect(reader.lastSeq).toBe(reader.closedSeq);
      expect(reader.goodbye).toEqual({ reason: 'session_closed' });
    } finally {
      reader.terminate();
    }
  }, 120_000);
});
