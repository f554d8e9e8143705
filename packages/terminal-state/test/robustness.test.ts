import { Terminal } from '@xterm/headless';
import { TerminalState } from '@pty-ws/terminal-state';
import { guardParser } from '../src/parserGuard';
import { diffTerminals, referenceTerminal, restore, screenLines, utf8, writeAsync } from './screen';

// Cursor in the last column of the last row of a buffer that has not scrolled yet, then ED 1.
const ERASE_ABOVE_AT_BOTTOM_RIGHT = 'top line\r\nsecond\x1b[10;30H\x1b[1J';

describe('xterm.js parser failures', () => {
  it('xterm.js 6 itself throws on ED 1 from the bottom-right cell (why eraseAboveFix exists)', async () => {
    const raw = new Terminal({ cols: 30, rows: 10, allowProposedApi: true });
    const errors: Error[] = [];
    guardParser(raw, (error) => errors.push(error));
    await writeAsync(raw, ERASE_ABOVE_AT_BOTTOM_RIGHT);
    // If this starts failing, xterm.js fixed the bug and eraseAboveFix.ts can go.
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('isWrapped')]);
  });

  it('TerminalState erases the whole screen there instead of crashing', async () => {
    const errors: Error[] = [];
    const state = new TerminalState({ cols: 30, rows: 10, onParseError: (error) => errors.push(error) });
    state.write(utf8(ERASE_ABOVE_AT_BOTTOM_RIGHT));
    state.write(utf8('\x1b[Hstill alive'));
    const snap = await state.snapshot();
    state.dispose();
    expect(errors).toEqual([]);
    const restored = await restore(snap);
    expect(screenLines(restored)).toEqual(['still alive', ...Array<string>(9).fill('')]);
    expect(
      diffTerminals(await referenceTerminal(30, 10, ERASE_ABOVE_AT_BOTTOM_RIGHT, '\x1b[Hstill alive'), restored),
    ).toEqual([]);
  });

  it('DECSED 1 (CSI ? 1 J) gets the same treatment', async () => {
    const state = new TerminalState({ cols: 30, rows: 10 });
    state.write(utf8('text\x1b[10;30H\x1b[?1J'));
    const restored = await restore(await state.snapshot());
    state.dispose();
    expect(screenLines(restored).every((line) => line === '')).toBe(true);
  });

  it('a throwing handler is contained: the error is reported and later output is still parsed', async () => {
    const term = new Terminal({ cols: 20, rows: 3, allowProposedApi: true });
    const errors: Error[] = [];
    guardParser(term, (error) => errors.push(error));
    term.parser.registerCsiHandler({ final: 'z' }, () => {
      throw new Error('boom');
    });
    await writeAsync(term, 'before\x1b[z');
    await writeAsync(term, ' after'); // would never complete if the write queue had stalled
    expect(errors.map((e) => e.message)).toEqual(['boom']);
    expect(screenLines(term)[0]).toBe('before after');
  });
});

describe('xterm.js logging', () => {
  const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

  it('prints nothing for bytes it cannot parse (DEL, a binary dump) and counts them instead', async () => {
    const spies = CONSOLE_METHODS.map((m) => jest.spyOn(console, m).mockImplementation(() => undefined));
    let malformed = 0;
    const state = new TerminalState({ cols: 30, rows: 10, onMalformedInput: () => malformed++ });
    try {
      const binary = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256);
      state.write(new Uint8Array(50).fill(0x7f));
      state.write(binary);
      state.write(utf8('\x1b[2J\x1b[Hstill alive'));
      const restored = await restore(await state.snapshot());
      expect(screenLines(restored)[0]).toBe('still alive');
      expect(malformed).toBeGreaterThanOrEqual(50);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      state.dispose();
      for (const spy of spies) spy.mockRestore();
    }
  });
});
