import { ShellMarkParser, type MarkSegment } from '../src/shell/shell-marks';
import { terminalText, withoutEolMark } from '../src/tasks/terminal-text';
import { shellKindOf } from '../src/shell/shell-integration';

const feed = (chunks: string[]): MarkSegment[] => {
  const p = new ShellMarkParser();
  return chunks.flatMap((c) => p.push(Buffer.from(c, 'latin1')));
};
const describeSegs = (segs: MarkSegment[]) =>
  segs.map((s) => ('mark' in s ? `<${s.mark.kind}${s.mark.exitCode ?? ''}>` : s.text.toString('latin1'))).join('');

describe('ShellMarkParser', () => {
  it('splits text and OSC 133 marks (BEL or ST terminated)', () => {
    expect(describeSegs(feed(['a\x1b]133;C\x07out\r\n\x1b]133;D;3\x1b\\\x1b]133;A\x07$ ']))).toBe(
      'a<C>out\r\n<D3><A>$ ',
    );
  });

  it('finds a mark split across chunks at every position', () => {
    const whole = 'x\x1b]133;D;127\x07y';
    for (let i = 1; i < whole.length; i++) {
      expect(describeSegs(feed([whole.slice(0, i), whole.slice(i)]))).toBe('x<D127>y');
    }
  });

  it('leaves other OSC sequences and an unterminated long "mark" as text', () => {
    expect(describeSegs(feed(['\x1b]0;title\x07t']))).toBe('\x1b]0;title\x07t');
    const junk = '\x1b]133;' + 'z'.repeat(100);
    expect(describeSegs(feed([junk]))).toBe(junk);
  });
});

describe('terminalText', () => {
  it('drops escape sequences and normalizes line ends', () => {
    expect(terminalText('\x1b[?2004l\r\x1b[1;31mred\x1b[0m\r\r\nnext\x1b(B\r\n')).toBe('red\nnext\n');
  });

  it('keeps a line as last drawn over carriage returns and backspaces', () => {
    expect(terminalText('10%\r20%\r100%\r\nok\rno')).toBe('100%\nno');
    expect(terminalText('abcdef\rxy')).toBe('xycdef');
    expect(terminalText('a\b\nb')).toBe('a\nb');
  });

  it('starts a new line where positioned output moves to another row', () => {
    const redraw = '\x1b[1;1H\x1b[1;30r\x1b[2;1Habc';
    expect(terminalText(`${redraw}\x1b[1;1H\x1b[2;4H$ `, true)).toBe('abc$ ');
    expect(terminalText(`${redraw}\x1b[3;1H$ `, true)).toBe('abc\n$ ');
    expect(terminalText(`${redraw}\r\n\x1b[3;1H$ `, true)).toBe('abc\n$ ');
    // Text drawn before any move (a typed line's echo), then output moved to a line's start.
    expect(terminalText('echo -n abc\x1b[1;1H\x1b[7;1Habc$ ', true)).toBe('echo -n abc\nabc$ ');
    expect(terminalText('$ ec\x1b[1;1H\x1b[7;5Hho', true)).toBe('$ echo');
  });
});

describe('withoutEolMark', () => {
  const mark = '\x1b[1m\x1b[7m%\x1b[27m\x1b[0m' + ' '.repeat(10) + '\r \r';
  it("removes zsh's end-of-line mark, which means no final newline only after text on its line", () => {
    expect(withoutEolMark(`abc${mark}`)).toEqual({ raw: 'abc\x1b[1m', unterminated: true });
    expect(withoutEolMark(`abc\r\n${mark}`)).toEqual({ raw: 'abc\r\n\x1b[1m', unterminated: false });
  });
});

describe('shellKindOf', () => {
  it.each([
    [['/bin/bash', '-l'], 'bash'],
    [['bash', '--norc', '--noprofile'], 'bash'],
    [['/bin/sh'], 'posix'],
    [['/usr/bin/dash', '-i'], 'posix'],
    [['/bin/sh', '-lc', 'echo hi'], undefined],
    [['/bin/bash', 'script.sh'], undefined],
    [['/usr/bin/python3'], undefined],
    [['/usr/bin/zsh', '-l'], 'zsh'],
    [['zsh', '-i'], 'zsh'],
    [['-zsh'], 'zsh'],
    [['zsh', '-c', 'true'], undefined],
    // -f / --no-rcs: no start-up files, so no integration (tasks go to the process executor).
    [['zsh', '-f'], undefined],
    [['zsh', '-df'], undefined],
    [['zsh', '--no-rcs'], undefined],
  ])('%j → %s', (argv, kind) => {
    expect(shellKindOf(argv)).toBe(kind);
  });
});
