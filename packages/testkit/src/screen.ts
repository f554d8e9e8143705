/** Headless xterm screens for checking keyframe fidelity cell by cell. */
import { Terminal } from '@xterm/headless';

export interface Cell {
  chars: string;
  width: number;
  fg: number;
  bg: number;
  fgMode: number;
  bgMode: number;
  flags: string;
}

export interface Screen {
  cols: number;
  rows: number;
  cursorX: number;
  cursorY: number;
  /** Visible rows as text (right-trimmed), for readable diffs. */
  lines: string[];
  cells: Cell[][];
  alternate: boolean;
}

export function newTerminal(cols: number, rows: number): Terminal {
  return new Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
}

export function writeAll(term: Terminal, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

/** The visible screen: characters, colours, attributes and the cursor. */
export function captureScreen(term: Terminal): Screen {
  const buf = term.buffer.active;
  const lines: string[] = [];
  const cells: Cell[][] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buf.getLine(buf.baseY + y);
    lines.push(line ? line.translateToString(true) : '');
    const row: Cell[] = [];
    for (let x = 0; x < term.cols; x++) {
      const c = line?.getCell(x);
      if (!c) {
        row.push({ chars: '', width: 1, fg: 0, bg: 0, fgMode: 0, bgMode: 0, flags: '' });
        continue;
      }
      const flags = [
        c.isBold() ? 'b' : '',
        c.isItalic() ? 'i' : '',
        c.isDim() ? 'd' : '',
        c.isUnderline() ? 'u' : '',
        c.isInverse() ? 'r' : '',
        c.isInvisible() ? 'h' : '',
        c.isStrikethrough() ? 's' : '',
      ].join('');
      row.push({
        chars: c.getChars(),
        width: c.getWidth(),
        fg: c.getFgColor(),
        bg: c.getBgColor(),
        fgMode: c.getFgColorMode(),
        bgMode: c.getBgColorMode(),
        flags,
      });
    }
    cells.push(row);
  }
  return {
    cols: term.cols,
    rows: term.rows,
    cursorX: buf.cursorX,
    cursorY: buf.cursorY,
    lines,
    cells,
    alternate: buf.type === 'alternate',
  };
}

/** Cell-by-cell differences between two screens (empty when identical). */
export function diffScreens(expected: Screen, actual: Screen, max = 20): string[] {
  const out: string[] = [];
  if (expected.cols !== actual.cols || expected.rows !== actual.rows)
    out.push(`size ${expected.cols}x${expected.rows} vs ${actual.cols}x${actual.rows}`);
  if (expected.cursorX !== actual.cursorX || expected.cursorY !== actual.cursorY) {
    out.push(`cursor (${expected.cursorX},${expected.cursorY}) vs (${actual.cursorX},${actual.cursorY})`);
  }
  const rows = Math.min(expected.rows, actual.rows);
  const cols = Math.min(expected.cols, actual.cols);
  for (let y = 0; y < rows && out.length < max; y++) {
    for (let x = 0; x < cols && out.length < max; x++) {
      const a = expected.cells[y]?.[x];
      const b = actual.cells[y]?.[x];
      if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`(${x},${y}) ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }
  }
  return out;
}
