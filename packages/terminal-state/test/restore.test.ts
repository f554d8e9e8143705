import { TerminalState } from '@pty-ws/terminal-state';
import {
  continueBoth,
  diffTerminals,
  newTerminal,
  referenceTerminal,
  restore,
  screenLines,
  utf8,
  writeAsync,
} from './screen';
import { COLS, ROWS, TUI_CONTINUATION, TUI_STREAM, irregularChunks, splitsMultibyte } from './tuiStream';

async function snapshotOf(
  cols: number,
  rows: number,
  data: string | Uint8Array[],
): ReturnType<TerminalState['snapshot']> {
  const state = new TerminalState({ cols, rows });
  try {
    for (const chunk of typeof data === 'string' ? [utf8(data)] : data) state.write(chunk);
    return await state.snapshot();
  } finally {
    state.dispose();
  }
}

describe('vt100-screen-state-v1 restore of a TUI session', () => {
  const bytes = utf8(TUI_STREAM);
  const chunks = irregularChunks(bytes);

  it('feeds the stream with multibyte characters split across writes', () => {
    expect(splitsMultibyte(chunks)).toBe(true);
  });

  it('reproduces every cell, the cursor, the alternate screen and the modes', async () => {
    const snap = await snapshotOf(COLS, ROWS, chunks);
    expect(snap).toMatchObject({ cols: COLS, rows: ROWS });
    const expected = await referenceTerminal(COLS, ROWS, bytes);
    const actual = await restore(snap);

    // The reference really is in the state the test is about (guards against a vacuous pass).
    expect(expected.buffer.active.type).toBe('alternate');
    expect([expected.buffer.active.cursorX, expected.buffer.active.cursorY]).toEqual([30, 11]);
    expect(screenLines(expected)[0]).toContain('top - 12:00:00');
    expect(screenLines(expected)[5]).toContain('温度');
    expect(expected.modes).toMatchObject({
      applicationCursorKeysMode: true,
      bracketedPasteMode: true,
      mouseTrackingMode: 'drag',
    });

    expect(diffTerminals(expected, actual)).toEqual([]);
  });

  it('continues identically after the keyframe, including leaving the alternate screen', async () => {
    const snap = await snapshotOf(COLS, ROWS, chunks);
    const expected = await referenceTerminal(COLS, ROWS, bytes);
    const actual = await restore(snap);
    await continueBoth(expected, actual, TUI_CONTINUATION);

    expect(expected.buffer.active.type).toBe('normal');
    expect(screenLines(expected).join('\n')).toContain('back in the shell');
    expect(screenLines(expected)[0]).toContain('red bright orange rgb'); // scrolled up by one
    expect(diffTerminals(expected, actual)).toEqual([]);
  });

  it('restores into a terminal that was dirty before reset() (client rule: reset before a keyframe)', async () => {
    const dirt = [
      'garbage everywhere\x1b[41m\x1b[2J\x1b[5;10r\x1b[?6h\x1b[4h\x1b[?7l\x1b[?25l\x1b(0qqq',
      '\x1b[?1000h\x1b[?1006h\x1b[6 q\x1b[3;3H\x1b[1;7m\x1b7\x1b[?1049h\x1b[44mALT\x1b[?2004h',
    ].join('');
    const snap = await snapshotOf(COLS, ROWS, chunks);
    const expected = await referenceTerminal(COLS, ROWS, bytes);
    const actual = await restore(snap, dirt);
    expect(diffTerminals(expected, actual)).toEqual([]);
    await continueBoth(expected, actual, TUI_CONTINUATION);
    expect(diffTerminals(expected, actual)).toEqual([]);
  });

  it('restores the normal screen when no app is running', async () => {
    const shellOnly = TUI_STREAM.slice(0, TUI_STREAM.indexOf('\x1b[?1049h'));
    const snap = await snapshotOf(COLS, ROWS, shellOnly);
    const expected = await referenceTerminal(COLS, ROWS, shellOnly);
    const actual = await restore(snap);
    expect(expected.buffer.active.type).toBe('normal');
    expect(screenLines(expected)[4]).toMatch(/^long:abcdefghij/);
    expect(screenLines(expected)[5]).toBe('fghij' + 'abcdefghij'.repeat(2));
    expect(diffTerminals(expected, actual)).toEqual([]);
    await continueBoth(expected, actual, 'ls\r\n\x1b[33myellow\x1b[0m\r\n'.repeat(12));
    expect(diffTerminals(expected, actual)).toEqual([]);
  });
});

describe('state and cells beyond the serialize addon', () => {
  const cases: Array<{ name: string; input: string; continuation: string }> = [
    { name: 'wrap pending after the last column', input: '\x1b[3;1H' + 'W'.repeat(COLS), continuation: 'Z next' },
    { name: 'wrap pending after a wide char', input: '\x1b[3;1H' + 'x'.repeat(COLS - 2) + '中', continuation: 'Y' },
    {
      name: 'wrap pending with autowrap off',
      input: '\x1b[?7l\x1b[2;1H' + 'q'.repeat(COLS + 3),
      continuation: 'QR\x1b[?7h',
    },
    {
      name: 'scroll region',
      input: 'top\x1b[5;10r\x1b[10;1Hbottom',
      continuation: '\n\n\nscrolled\r\n\n\n\n\n\n\n\nend',
    },
    {
      name: 'origin mode',
      input: 'abc\x1b[5;10r\x1b[?6h\x1b[3;4Hxy',
      continuation: '\x1b[1;1H*\x1b[20;1H#\n\n\n\n\n\n\nend',
    },
    {
      name: 'DECSC saved cursor and pen',
      input: '\x1b[5;7H\x1b[1;35m\x1b7\x1b[0m\x1b[10;1Hmoved',
      continuation: '\x1b8restored',
    },
    {
      name: 'pen with truecolor bg (and BCE)',
      input: '\x1b[3;4;38;2;1;2;3;48;5;100mpen',
      continuation: 'more\x1b[K\r\n\x1b[2K',
    },
    { name: 'pen with bright colours', input: '\x1b[2;9;95;104mx', continuation: 'y' },
    { name: 'DEC graphics mid-drawing', input: '\x1b(0lqq', continuation: 'qqk\x1b(Bq' },
    { name: 'SO into G1 graphics', input: '\x1b)0\x0eqq', continuation: 'q\x0fq' },
    { name: 'insert mode', input: 'hello world\x1b[4h\x1b[1;7H', continuation: 'big ' },
    {
      name: 'alt screen entered with a coloured pen',
      input: 'shell\x1b[41m\x1b[?1049h\x1b[0m\x1b[2Jhi\x1b[44m',
      continuation: 'x\x1b[?1049lafter',
    },
    { name: 'alt screen via 1047 (no save)', input: 'shell\x1b[?1047h\x1b[5;5Happ', continuation: '\x1b[?1047lout' },
    {
      name: 'cursor hidden, SGR mouse, bar cursor',
      input: '\x1b[?25l\x1b[?1003h\x1b[?1006h\x1b[5 q\x1b[?1004h',
      continuation: 'x',
    },
    { name: 'reverse wrap and app keypad', input: '\x1b[?45h\x1b=\x1b[2;1Habc', continuation: '\x1b[1;1H\bZ' },
    { name: 'LNM (newline mode)', input: '\x1b[20hline1\n', continuation: 'line2\nline3' },
    { name: 'combining characters', input: 'e\u0301a\u0308 x\u20dd', continuation: 'o\u0302' },
    { name: 'empty terminal', input: '', continuation: 'first output' },
    // Cells the serialize addon writes wrongly (why screenPainter.ts exists), minimised cases:
    { name: 'bold cell after a bold+dim cell', input: '\x1b[1;2mx\x1b[0;1my\x1b[0m', continuation: 'z' },
    {
      name: 'soft-wrapped row starting with a blank cell',
      input: 'a'.repeat(COLS + 3) + '\x1b[2;1H\x1b[X\r\nnext row',
      continuation: 'more',
    },
    {
      name: 'blank row followed by a wrapped row',
      input: 'a'.repeat(COLS + 5) + `\x1b[1;1H\x1b[${COLS}X\x1b[3;1H`,
      continuation: 'x',
    },
    {
      name: 'coloured blank rows below the content',
      input: '\x1b[44m\x1b[2J\x1b[Htitle\x1b[0m',
      continuation: '\r\n\n',
    },
    // Blank cells carrying the full pen (orphanCells.ts):
    {
      name: 'inverse hole left by overwriting half a wide char',
      input: '\x1b[7m中文字\x1b[1;2Hx\x1b[0m',
      continuation: 'y',
    },
    {
      name: 'wide char that does not fit the last column',
      input: `\x1b[4m\x1b[1;${COLS}H中\x1b[0m`,
      continuation: 'z',
    },
    { name: 'run of such cells', input: '\x1b[7m中中中\x1b[1;2Hx\x1b[1;4Hy\x1b[0m', continuation: 'w' },
    // Positions only printing or a buffer switch can reach (cursor.ts, screenPainter.ts):
    {
      name: 'first row continuing a line from scrollback',
      input: `\x1b[${ROWS};1H` + 'b'.repeat(COLS * (ROWS + 1)),
      continuation: 'c',
    },
    {
      name: 'wrap pending over an erased last cell',
      input: '\x1b[3;1H' + 'W'.repeat(COLS) + '\x1b[2K',
      continuation: 'Z',
    },
    {
      name: 'origin mode with the cursor outside the margins',
      input: '\x1b[1;2r\x1b[?6h\x1b[?1047h\x1b[5;3H\x1b[?1047l',
      continuation: 'x\n\n\x1b[1;1Hy',
    },
  ];

  it.each(cases)('$name', async ({ input, continuation }) => {
    const snap = await snapshotOf(COLS, ROWS, input);
    const expected = await referenceTerminal(COLS, ROWS, input);
    const actual = await restore(snap);
    expect(diffTerminals(expected, actual)).toEqual([]);
    await continueBoth(expected, actual, continuation);
    expect(diffTerminals(expected, actual)).toEqual([]);
  });

  it('really is in a pending-wrap state in the wrap cases (x === cols)', async () => {
    const term = await referenceTerminal(COLS, ROWS, '\x1b[3;1H' + 'W'.repeat(COLS));
    expect(term.buffer.active.cursorX).toBe(COLS);
  });
});

describe('the comparison used above', () => {
  it('reports a single differing attribute and a cursor off by one', async () => {
    const a = newTerminal(10, 3);
    const b = newTerminal(10, 3);
    await writeAsync(a, 'ab\x1b[38;2;1;2;3mc');
    await writeAsync(b, 'ab\x1b[38;2;1;2;4mc ');
    const diffs = diffTerminals(a, b);
    expect(diffs.some((d) => d.startsWith('cell 2,0'))).toBe(true);
    expect(diffs).toContain('cursor (3,0) != (4,0)');
  });

  it('reports differing hidden state (pen, scroll region)', async () => {
    const a = newTerminal(10, 5);
    const b = newTerminal(10, 5);
    await writeAsync(a, '\x1b[2;4r\x1b[1m');
    await writeAsync(b, '\x1b[H');
    const diffs = diffTerminals(a, b);
    expect(diffs.some((d) => d.startsWith('pen:'))).toBe(true);
    expect(diffs.some((d) => d.startsWith('normalBuffer:'))).toBe(true);
  });
});

describe('vt100-screen-state-v1 restore of underline styles and the window title', () => {
  const E = '\x1b[';
  const STYLED =
    `${E}4:3;58;5;196mcurly red${E}0m ${E}4:2mdouble${E}4:5;58:2::10:20:30mdashed rgb${E}0m\r\n` +
    `${E}4;58;5;33mplain blue-underlined${E}0m ${E}4:4mdotted${E}24m off`;

  it('keeps the underline style and colour of every cell and of the pen', async () => {
    const stream = `${STYLED}\r\n${E}4:3;58;5;2m`; // the pen stays curly green
    const expected = await referenceTerminal(40, 5, stream);
    const actual = await restore(await snapshotOf(40, 5, stream));
    expect(diffTerminals(expected, actual)).toEqual([]);
    await continueBoth(expected, actual, 'pen');
    expect(diffTerminals(expected, actual)).toEqual([]);
  });

  it('restores the last window title (OSC 0 / OSC 2), without its control characters', async () => {
    const titles: string[] = [];
    const snap = await snapshotOf(20, 3, '\x1b]0;first\x07\x1b]2;vim: notes.txt\x1b\\text');
    const actual = newTerminal(20, 3);
    actual.onTitleChange((title) => titles.push(title));
    await writeAsync(actual, snap.snapshot);
    expect(titles).toEqual(['vim: notes.txt']);
  });

  it('writes no title for a program that never set one', async () => {
    expect((await snapshotOf(20, 3, 'text')).snapshot).not.toContain('\x1b]');
  });
});
