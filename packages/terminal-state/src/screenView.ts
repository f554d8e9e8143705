/**
 * The screen as text, for programs that read it rather than draw it (`GET …/screen`): one string
 * per visible row of the active buffer, trailing blanks removed. A wide character takes two cells
 * and appears once in its row's string (xterm.js leaves its second cell empty). `ansi` rows carry
 * each run's attributes as an absolute SGR, so colours survive; plain rows carry none.
 */
import type { IBuffer, IBufferCell } from '@xterm/headless';
import type { ScreenFormat, SessionScreen } from '@pty-ws/ports';
import type { Terminal } from './xterm';
import { readCoreState } from './xterm-private';
import { absoluteSgr, isDefaultAttributes, sameAttributes } from './sgr';

/** The screen without the log sequence it reflects (the owner adds that: session-output.ts). */
export type ScreenView = Omit<SessionScreen, 'seq'>;

export function readScreenView(term: Terminal, title: string, format: ScreenFormat): ScreenView {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    lines.push(format === 'ansi' ? ansiRow(buffer, buffer.baseY + y, term.cols) : plainRow(buffer, buffer.baseY + y));
  }
  return {
    cols: term.cols,
    rows: term.rows,
    cursor: { x: buffer.cursorX, y: buffer.cursorY, visible: !readCoreState(term).cursorHidden },
    title,
    alt_screen: buffer.type === 'alternate',
    lines,
  };
}

/** Spaces a program wrote count as blank too (vim and less clear rows with them). */
function plainRow(buffer: IBuffer, y: number): string {
  return buffer.getLine(y)?.translateToString(true).replace(/ +$/, '') ?? '';
}

/**
 * A row with an SGR before each run of equal attributes and a reset at its end (when anything
 * was styled). Cells past the last non-blank one are left out unless they carry a background.
 */
function ansiRow(buffer: IBuffer, y: number, cols: number): string {
  const line = buffer.getLine(y);
  if (!line) return '';
  let end = cols;
  const cell: IBufferCell = buffer.getNullCell();
  while (end > 0) {
    line.getCell(end - 1, cell);
    const blank = cell.getChars() === '' || cell.getChars() === ' ';
    if (!blank || cell.getWidth() !== 1 || !isDefaultAttributes(cell)) break;
    end--;
  }
  let out = '';
  let pen: IBufferCell | undefined;
  let styled = false;
  for (let x = 0; x < end; x++) {
    const current = line.getCell(x);
    if (!current || current.getWidth() === 0) continue; // the second half of a wide character
    if (!pen || !sameAttributes(pen, current, false)) {
      const sgr = absoluteSgr(current);
      if (pen || sgr !== '\x1b[0m') out += sgr;
      styled ||= sgr !== '\x1b[0m';
      pen = current;
    }
    out += current.getChars() || ' ';
  }
  return styled ? out + '\x1b[0m' : out;
}
