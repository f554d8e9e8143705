/**
 * Paints a buffer's screen row by row with absolute positioning — the fallback for screens the
 * serialize addon mis-serializes.
 *
 * The addon recreates soft-wrapped rows by letting the terminal wrap naturally. When a wrapped
 * row starts with a blank cell its check `getChars() && isWide ? ... : ...` (operator precedence)
 * still chooses the natural wrap, but it then writes cursor moves, which do not wrap: the rest of
 * that row lands one row up and every later row can shift. Here each row is addressed with CUP,
 * blanks are erased explicitly, and a wrapped row gets its flag by printing over the end of the
 * row above (then repainting that cell), so one row can never disturb another.
 */
import type { IBuffer, IBufferCell, IBufferLine } from '@xterm/headless';
import { absoluteSgr, backgroundSgr } from './sgr';

function cup(y: number, x: number): string {
  return `\x1b[${y + 1};${x + 1}H`;
}

/** True when the addon cannot be trusted with this screen (see the module comment). */
export function needsPainter(buffer: IBuffer, rows: number): boolean {
  for (let y = 1; y < rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    const first = line?.getCell(0);
    if (line?.isWrapped === true && first !== undefined && first.getChars() === '' && first.getWidth() === 1) return true;
  }
  return false;
}

/** The row's cells left to right: printed characters, erased runs of blank cells. */
function paintRow(line: IBufferLine, cols: number): string {
  let out = '';
  let pen = '';
  for (let x = 0; x < cols; ) {
    const cell = line.getCell(x) as IBufferCell;
    const width = Math.max(cell.getWidth(), 1);
    if (cell.getChars() === '') {
      const sgr = backgroundSgr(cell);
      let run = 1;
      while (x + run < cols && sameBlank(line.getCell(x + run), sgr)) run++;
      if (sgr !== pen) out += sgr;
      pen = sgr;
      out += `\x1b[${run}X` + (x + run < cols ? `\x1b[${run}C` : '');
      x += run;
    } else {
      const sgr = absoluteSgr(cell);
      if (sgr !== pen) out += sgr;
      pen = sgr;
      out += cell.getChars();
      x += width;
    }
  }
  return out;
}

function sameBlank(cell: IBufferCell | undefined, sgr: string): boolean {
  return cell !== undefined && cell.getChars() === '' && cell.getWidth() === 1 && backgroundSgr(cell) === sgr;
}

/** The cell (or wide character) covering the last column, printed again: leaves a pending wrap. */
function lastCell(line: IBufferLine, y: number, cols: number): string {
  const last = line.getCell(cols - 1);
  const x = last !== undefined && last.getWidth() === 0 ? cols - 2 : cols - 1;
  const cell = line.getCell(x);
  if (cell === undefined) return '';
  if (cell.getChars() === '') return cup(y, x) + backgroundSgr(cell) + '\x1b[X';
  return cup(y, x) + absoluteSgr(cell) + cell.getChars();
}

export function paintScreen(buffer: IBuffer, cols: number, rows: number): string {
  let out = '';
  for (let y = 0; y < rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    if (line === undefined) continue;
    const above = y > 0 ? buffer.getLine(buffer.baseY + y - 1) : undefined;
    if (line.isWrapped && above !== undefined) {
      // Print into the last column and once more: the second character wraps and marks this row
      // as a continuation. Then put the borrowed last cell of the row above back.
      out += cup(y - 1, cols - 1) + '\x1b[0m  ' + lastCell(above, y - 1, cols);
    }
    out += cup(y, 0) + paintRow(line, cols);
  }
  return out + '\x1b[0m';
}
