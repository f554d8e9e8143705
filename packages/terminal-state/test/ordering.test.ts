import { TerminalState } from '@pty-ws/terminal-state';
import { Terminal } from '@xterm/headless';
import { diffTerminals, newTerminal, referenceTerminal, restore, screenLines, utf8, writeAsync } from './screen';

/**
 * Resizes reflow wrapped lines and may pull lines back from scrollback, so resize tests give the
 * TerminalState an explicit scrollback and the reference terminal the same one.
 */
const SERVER_SCROLLBACK = 100;
function serverLikeTerminal(cols: number, rows: number): Terminal {
  return newTerminal(cols, rows, SERVER_SCROLLBACK);
}

describe('TerminalState ordering', () => {
  let state: TerminalState;
  afterEach(() => state.dispose());

  it('a snapshot reflects the writes queued before it and none queued after', async () => {
    state = new TerminalState({ cols: 40, rows: 8 });
    state.write(utf8('\x1b[31mA-first\x1b[0m\r\n'));
    const first = state.snapshot();
    state.write(utf8('B-second\x1b[2J\x1b[H'));
    const second = state.snapshot();
    state.write(utf8('C-third'));

    const [snapA, snapAB] = await Promise.all([first, second]);
    const restoredA = await restore(snapA);
    expect(screenLines(restoredA)[0]).toBe('A-first');
    expect(screenLines(restoredA).join('')).not.toContain('B-second');
    expect(diffTerminals(await referenceTerminal(40, 8, '\x1b[31mA-first\x1b[0m\r\n'), restoredA)).toEqual([]);

    // B cleared the screen and homed the cursor; C is not there yet.
    const restoredAB = await restore(snapAB);
    expect(screenLines(restoredAB).every((line) => line === '')).toBe(true);
    expect([restoredAB.buffer.active.cursorX, restoredAB.buffer.active.cursorY]).toEqual([0, 0]);
  });

  it('a snapshot taken before any output has been parsed is the empty screen', async () => {
    state = new TerminalState({ cols: 20, rows: 5 });
    const empty = await state.snapshot();
    expect(empty).toMatchObject({ cols: 20, rows: 5 });
    const dirtyClient = await restore(empty, 'junk\x1b[44m\x1b[?1049h\x1b[3;4r\x1b[?25l more junk');
    expect(diffTerminals(newTerminal(20, 5), dirtyClient)).toEqual([]);
  });

  it('applies a resize between the writes around it', async () => {
    state = new TerminalState({ cols: 20, rows: 5, scrollback: SERVER_SCROLLBACK });
    // A finished 30-column line (wrapped at 20) and a prompt; the cursor line itself never reflows.
    const before = 'y'.repeat(30) + '\r\nprompt$ ';
    const after = 'typed-after-resize';
    state.write(utf8(before));
    const small = state.snapshot();
    state.resize(30, 6);
    state.write(utf8(after));
    const big = state.snapshot();

    const [snapSmall, snapBig] = await Promise.all([small, big]);
    expect(snapSmall).toMatchObject({ cols: 20, rows: 5 });
    expect(snapBig).toMatchObject({ cols: 30, rows: 6 });

    const reference = serverLikeTerminal(20, 5);
    await writeAsync(reference, before);
    reference.resize(30, 6);
    await writeAsync(reference, after);
    const restored = await restore(snapBig);
    expect(diffTerminals(reference, restored)).toEqual([]);
    // Reflowed onto one line by the resize; the later text was written at the new width.
    expect(screenLines(restored).slice(0, 3)).toEqual(['y'.repeat(30), 'prompt$ typed-after-resize', '']);
    expect(screenLines(await restore(snapSmall))).toEqual(['y'.repeat(20), 'y'.repeat(10), 'prompt$ ', '', '']);
  });

  // scrollback 0 is raised to 1: with 0, xterm.js corrupts its buffer on this very sequence.
  it.each([
    { requested: SERVER_SCROLLBACK, effective: SERVER_SCROLLBACK },
    { requested: 0, effective: 1 },
  ])(
    'keeps resizes and writes in order across many interleavings (scrollback $requested)',
    async ({ requested, effective }) => {
      state = new TerminalState({ cols: 10, rows: 4, scrollback: requested });
      const reference = newTerminal(10, 4, effective);
      const sizes: Array<[number, number]> = [
        [12, 5],
        [8, 3],
        [15, 6],
        [10, 4],
      ];
      for (const [i, [cols, rows]] of sizes.entries()) {
        const text = `${i}:${'#'.repeat(cols + 3)}\r\n`;
        state.write(utf8(text));
        state.resize(cols, rows);
        await writeAsync(reference, text);
        reference.resize(cols, rows);
      }
      const snap = await state.snapshot();
      expect(snap).toMatchObject({ cols: 10, rows: 4 });
      const restored = await restore(snap);
      expect(diffTerminals(reference, restored)).toEqual([]);
      expect(screenLines(restored).join('|')).toContain('3:#');
    },
  );

  it('reports the queued geometry immediately', () => {
    state = new TerminalState({ cols: 80, rows: 24 });
    state.resize(100, 30);
    expect([state.cols, state.rows]).toEqual([100, 30]);
  });

  it('rejects invalid geometry', () => {
    state = new TerminalState({ cols: 80, rows: 24 });
    expect(() => state.resize(0, 10)).toThrow(RangeError);
    expect(() => state.resize(10.5, 10)).toThrow(RangeError);
    expect(() => new TerminalState({ cols: Number.NaN, rows: 10 })).toThrow(RangeError);
  });

  it('does not depend on the caller keeping its buffer intact', async () => {
    state = new TerminalState({ cols: 20, rows: 3 });
    const buf = utf8('original');
    state.write(buf);
    buf.fill(0x41); // a PTY reader reusing its buffer
    const restored = await restore(await state.snapshot());
    expect(screenLines(restored)[0]).toBe('original');
  });

  it('takes a snapshot at once when xterm holds nothing, without waiting for its timer', async () => {
    state = new TerminalState({ cols: 20, rows: 3 });
    state.write(utf8('typed'));
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const snap = await state.snapshot();
    // xterm parses a write on a timer of its own (>= 1 ms here) unless handed over at once.
    expect(timerRan).toBe(false);
    expect(screenLines(await restore(snap))[0]).toBe('typed');
  });

  it('rejects pending and later snapshots once disposed, and ignores later input', async () => {
    // A 1-byte queue bound hands 'data' to xterm at once, on xterm's timer: the snapshot then waits.
    state = new TerminalState({ cols: 20, rows: 3, maxQueuedBytes: 1 });
    state.write(utf8('data'));
    const pending = state.snapshot();
    state.dispose();
    await expect(pending).rejects.toThrow(/disposed/);
    await expect(state.snapshot()).rejects.toThrow(/disposed/);
    expect(() => state.write(utf8('more'))).not.toThrow();
    expect(() => state.resize(30, 4)).not.toThrow();
    // let xterm drain its (now ignored) queue without touching the disposed terminal
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('keeps up with a large burst of output', async () => {
    state = new TerminalState({ cols: 80, rows: 24 });
    const reference: Terminal = newTerminal(80, 24, 1000);
    const lines = Array.from({ length: 5000 }, (_, i) => `\x1b[3${i % 8}mline ${i} ${'='.repeat(i % 70)}\x1b[0m\r\n`);
    for (const line of lines) state.write(utf8(line));
    await writeAsync(reference, lines.join(''));
    const snap = await state.snapshot();
    expect(diffTerminals(reference, await restore(snap))).toEqual([]);
    expect(screenLines(await restore(snap))[22]).toMatch(/^line 4999 /);
  });
});
