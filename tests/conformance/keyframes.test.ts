/**
 * Keyframes (pty-extensions/v1): cadence under sustained output (scenario 8), on request, and
 * restore fidelity of `vt100-screen-state-v1` into a freshly reset xterm.js.
 */
import { SNAPSHOT_FORMAT } from '@pty-ws/protocol';
import {
  captureScreen,
  delay,
  diffScreens,
  is,
  isLogFrame,
  joinSession,
  newTerminal,
  outputBytes,
  seqOf,
  sessionFrameOf,
  TMUX_INSTALLED,
  TmuxServer,
  writeAll,
  type Received,
  type TestClient,
  type TestContext,
} from '@pty-ws/testkit';
import { jsonOf, shell, useServer } from './support';

/** Frames from `from` on, split into Output frames and cadence (logged) Keyframes. */
function cadence(c: TestClient, from: number): { outputs: Received[]; keyframes: Received[]; stream: Received[] } {
  const stream = c.frames.slice(from).filter((r) => is.output()(r) || is.kind('Keyframe')(r));
  return { outputs: stream.filter(is.output()), keyframes: stream.filter(is.kind('Keyframe')), stream };
}

describe('keyframe cadence by frames (keyframe_interval_frames 5)', () => {
  const ctx = useServer({ keyframeIntervalFrames: 5, keyframeIntervalS: 3600 });

  it('extension scenario 8: a Keyframe at least every keyframe_interval_frames Output frames under sustained output', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s);
    await joinSession(ctl, { role: 'controller' });
    const obs = await ctx().attach(s);
    await joinSession(obs, { role: 'observer' });
    const from = ctl.mark();
    const oFrom = obs.mark();
    ctl.input('i=0; while [ $i -lt 30 ]; do echo line$i; i=$((i+1)); sleep 0.03; done; echo LOOP_$((1+1))\n');
    await ctl.collectOutput(/LOOP_2/, 8000, from);
    await ctl.settle(200);
    const { outputs, keyframes, stream } = cadence(ctl, from);
    expect(outputs.length).toBeGreaterThanOrEqual(20);
    expect(keyframes.length).toBeGreaterThanOrEqual(Math.floor(outputs.length / 5) - 1);
    // Never more than 5 Output frames without a Keyframe in between (after the first one).
    expect(longestRun(stream)).toBeLessThanOrEqual(5);
    // Cadence keyframes belong to the shared story: they take their own sequence number, and
    // every attached client gets them under the same number.
    const logged = ctl.frames
      .slice(from)
      .filter((r) => isLogFrame(r) || is.kind('Keyframe')(r))
      .map((r) => seqOf(r) as number);
    expect(new Set(logged).size).toBe(logged.length);
    const obsKeyframes = obs.frames
      .slice(oFrom)
      .filter(is.kind('Keyframe'))
      .map((r) => seqOf(r));
    expect(obsKeyframes).toEqual(keyframes.map((r) => seqOf(r)));
    for (const k of keyframes) {
      const p = sessionFrameOf(k, 'Keyframe');
      expect(p?.snapshot_format).toBe(SNAPSHOT_FORMAT);
      expect(p?.anchor_sequence).toBeLessThanOrEqual(seqOf(k) as number);
      expect(p?.anchor_sequence).toBeGreaterThanOrEqual((seqOf(k) as number) - 1);
    }
  });

  it('pty.request_keyframe is answered with a Keyframe within 1 s, anchored at the last log frame', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const c = await ctx().attach(s);
    await joinSession(c, { role: 'controller' });
    c.input('echo hello-keyframe\n');
    await c.collectOutput(/hello-keyframe[\s\S]*hello-keyframe/);
    await c.settle(200);
    const lastLog = Math.max(...c.frames.filter(isLogFrame).map((r) => seqOf(r) as number));
    const from = c.mark();
    const sentAt = Date.now();
    c.send('pty.request_keyframe', {});
    const kf = await c.waitFor(is.kind('Keyframe'), 1000, from);
    expect(kf.at - sentAt).toBeLessThanOrEqual(1000);
    const p = sessionFrameOf(kf, 'Keyframe');
    expect(p?.anchor_sequence).toBe(lastLog);
    expect(seqOf(kf)).toBe(lastLog); // addressed to one connection: not logged, no new number
    expect(Buffer.from(p?.snapshot ?? '', 'base64').toString()).toContain('hello-keyframe');
  });
});

/** The longest run of Output frames between two cadence Keyframes in `stream` (after the first one). */
function longestRun(stream: Received[]): number {
  let run = 0;
  let maxRun = 0;
  let started = false;
  for (const r of stream) {
    if (is.kind('Keyframe')(r)) {
      if (started) maxRun = Math.max(maxRun, run);
      started = true;
      run = 0;
    } else run += 1;
  }
  return maxRun;
}

describe('keyframe cadence under steady output (keyframe_interval_frames 20)', () => {
  // Small frames: many Output frames from a short burst.
  const ctx = useServer({ keyframeIntervalFrames: 20, keyframeIntervalS: 3600, outputFrameBytes: 1024 });

  it('never lets more than keyframe_interval_frames Output frames pass between cadence Keyframes', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s);
    await joinSession(ctl, { role: 'controller' });
    const from = ctl.mark();
    // Output as fast as the PTY takes it: snapshots are always overtaken, so only the bound holds.
    ctl.input('i=0; while [ $i -lt 8000 ]; do echo steady-line-$i; i=$((i+1)); done; echo STEADY_$((3+3))\n');
    await ctl.collectOutput(/STEADY_6/, 20_000, from);
    await ctl.settle(200);
    const { outputs, keyframes, stream } = cadence(ctl, from);
    expect(outputs.length).toBeGreaterThanOrEqual(60);
    expect(keyframes.length).toBeGreaterThanOrEqual(2);
    expect(longestRun(stream)).toBeLessThanOrEqual(20);
  });
});

describe('keyframe cadence by time (keyframe_interval_seconds 1)', () => {
  const ctx = useServer({ keyframeIntervalS: 1, keyframeIntervalFrames: 100000 });

  it('extension scenario 8: a Keyframe at least every keyframe_interval_seconds during active output', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s);
    await joinSession(ctl, { role: 'controller' });
    const from = ctl.mark();
    const started = Date.now();
    ctl.input('i=0; while [ $i -lt 14 ]; do echo tick$i; i=$((i+1)); sleep 0.2; done; echo TICKS_$((2+2))\n');
    await ctl.collectOutput(/TICKS_4/, 8000, from);
    const ended = Date.now();
    const { keyframes } = cadence(ctl, from);
    const activeS = (ended - started) / 1000;
    expect(keyframes.length).toBeGreaterThanOrEqual(Math.floor(activeS) - 1);
    expect(keyframes.length).toBeGreaterThanOrEqual(2);
    const times = [started, ...keyframes.map((k) => k.at)];
    for (let i = 1; i < times.length; i++)
      expect((times[i] as number) - (times[i - 1] as number)).toBeLessThanOrEqual(1700);
  });
});

describe('keyframe restore fidelity', () => {
  const ctx = useServer();
  const COLS = 40;
  const ROWS = 12;

  /** Runs a program that paints `bytes` and then idles; returns the session id. */
  async function paint(c: () => TestContext, bytes: string): Promise<string> {
    const s = await c().createSession({
      argv: ['/bin/sh', '-c', 'printf "%s" "$1"; printf "%s" "$2"; exec sleep 30', 'sh', bytes, '\u001b]0;END\u0007'],
      cols: COLS,
      rows: ROWS,
    });
    return s.session_id;
  }

  /**
   * An observer attached from the start (replay from 0) and one attached after the paint: the
   * first one's Output up to the second one's keyframe anchor, and that keyframe.
   */
  async function observeLate(sessionId: string) {
    const first = await ctx().attach(sessionId);
    await joinSession(first, { role: 'observer' }, { replayFrom: 0 });
    // Wait until the whole paint has been output (it ends with a title-setting OSC).
    await first.waitFor((r) => outputBytes(r)?.includes('\u001b]0;END\u0007') ?? false, 5000);
    await first.settle(200);

    const fresh = await ctx().attach(sessionId);
    const flush = await joinSession(fresh, { role: 'observer' });
    const anchor = flush.keyframe.anchor_sequence;
    expect(flush.keyframe).toMatchObject({
      snapshot_format: SNAPSHOT_FORMAT,
      snapshot_cols: COLS,
      snapshot_rows: ROWS,
    });
    const stream: Uint8Array[] = [];
    for (const r of first.frames) {
      const b = outputBytes(r);
      if (b && (seqOf(r) as number) <= anchor) stream.push(b);
    }
    return { stream, flush, keyframe: Buffer.from(flush.keyframe.snapshot, 'base64') };
  }

  async function compare(sessionId: string): Promise<void> {
    const { stream, flush, keyframe } = await observeLate(sessionId);
    // What the output showed up to the anchor…
    const expected = newTerminal(COLS, ROWS);
    for (const b of stream) await writeAll(expected, b);
    // …and what the snapshot repaints on a freshly reset terminal.
    const actual = newTerminal(flush.keyframe.snapshot_cols, flush.keyframe.snapshot_rows);
    actual.reset();
    await writeAll(actual, keyframe);
    const want = captureScreen(expected);
    const got = captureScreen(actual);
    expect(got.lines).toEqual(want.lines);
    expect(diffScreens(want, got)).toEqual([]);
    expected.dispose();
    actual.dispose();
    expect(jsonOf(flush.keyframeFrame).op).toBe('pty.session_frame');
  }

  it('a keyframe repaints colours, attributes, wide characters and the cursor cell by cell', async () => {
    const E = '\u001b[';
    const bytes = [
      `${E}2J${E}H`,
      `${E}1;31mBOLD RED${E}0m plain`,
      `${E}3;5H${E}4;32munderlined green${E}0m`,
      `${E}5;1H${E}7minverse${E}27m normal ${E}3mitalic${E}23m`,
      `${E}6;1H${E}38;5;208m256-colour${E}0m ${E}38;2;10;200;30mtruecolour${E}0m`,
      `${E}7;1H${E}44;97m blue bg ${E}0m ${E}2mdim${E}22m`,
      `${E}8;3H漢字 wide ✓`,
      `${E}10;1H${'x'.repeat(COLS + 5)}`, // wraps onto row 11
      `${E}4;30H${E}1m*${E}0m`,
      `${E}9;17H`, // leave the cursor here
    ].join('');
    await compare(await paint(ctx, bytes));
  });

  it('a keyframe repaints a scrolled screen and a full-screen (alternate buffer) TUI', async () => {
    const E = '\u001b[';
    const lines = Array.from({ length: 20 }, (_, i) => `scrolled line ${i}\r\n`).join('');
    const tui = [
      `${E}?1049h${E}H${E}2J`,
      `${E}1;1H${E}7m title bar${' '.repeat(COLS - 10)}${E}27m`,
      `${E}3;4H┌────────┐${E}4;4H│ ${E}1mmenu${E}22m   │${E}5;4H└────────┘`,
      `${E}${ROWS};1H${E}42;30m status ${E}0m`,
      `${E}4;8H`,
    ].join('');
    await compare(await paint(ctx, lines + tui));
  });

  (TMUX_INSTALLED ? it : it.skip)(
    'a late observer gets the keypad mode, underline styles and window title a long-attached tmux client has',
    async () => {
      const E = '\u001b[';
      // vim/less: application cursor keys and keypad (DECKPAM); curly and coloured underlines; a title.
      const bytes = [
        `${E}?1h\u001b=${E}2J${E}H~`,
        `${E}3;1H${E}4:3;58;5;196mcurly red${E}0m ${E}4:2;58:2::10:20:30mdouble rgb${E}0m`,
        `${E}12;1H"notes.txt" 2L, 10B${E}1;1H`,
      ].join('');
      const { stream, keyframe } = await observeLate(await paint(ctx, bytes));
      const tmux = new TmuxServer();
      try {
        const attached = tmux.pane(COLS, ROWS, Buffer.concat(stream));
        const late = tmux.pane(COLS, ROWS, keyframe);
        const [want, got] = await tmux.converge(attached, late);
        expect(want?.flags).toMatch(/keypad_flag=1 keypad_cursor_flag=1 pane_title=END /);
        expect(got).toEqual(want);
      } finally {
        tmux.dispose();
      }
    },
  );

  it('after the flush Keyframe, every Output frame has a sequence above anchor_sequence', async () => {
    const s = await paint(ctx, 'static screen\r\n');
    const c = await ctx().attach(s);
    await delay(200);
    const flush = await joinSession(c, { role: 'observer' });
    await delay(200);
    const after = c.frames.slice(c.frames.indexOf(flush.keyframeFrame) + 1).filter(is.output());
    for (const r of after) expect(seqOf(r) as number).toBeGreaterThan(flush.keyframe.anchor_sequence);
  });
});
