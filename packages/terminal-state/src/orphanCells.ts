/**
 * Repaints blank cells whose attributes an erase cannot produce.
 *
 * xterm.js leaves a character-less cell carrying the *whole* current pen (inverse, underline, fg
 * colour...) when one half of a wide character is overwritten, or when a wide character does not
 * fit in the last column. Erasing (ECH, which screenPainter.ts uses for blank cells, like the
 * serialize addon) only copies the background colour, so an inverse or underlined "hole" would come
 * back plain (e.g. a gap in an inverse status bar). No sequence writes an empty cell with a full
 * pen, so we replay
 * the same mechanism: put a wide character next to the target and print a narrow one over its other
 * half with the target's pen (xterm.js then blanks the orphaned half with that pen), and finally
 * repaint the neighbour we had to borrow. Runs of such cells are chained so that each step only
 * borrows a cell that is fixed later. Only a row made entirely of such cells cannot be expressed
 * (left as an erase makes it).
 *
 * Runs right after the buffer's cells are painted, while insert mode, origin mode, autowrap and
 * charsets are still at their reset values (they are restored later).
 */
import type { IBuffer, IBufferCell, IBufferLine } from '@xterm/headless';
import { absoluteSgr, backgroundSgr, hasPenBeyondBackground } from './sgr';

const WIDE = '\u4e2d'; // 中: double width in every unicode version xterm.js ships
const NARROW = 'x';

function cup(y: number, x: number): string {
  return `\x1b[${y + 1};${x + 1}H`;
}

/**
 * Every cell of the screen is asked, on every keyframe: one cell object is reused for the question
 * (getCell allocates otherwise) and no SGR string is built (a keyframe of an empty 120×30 screen
 * spent ~2 ms here).
 */
function isOrphan(line: IBufferLine, x: number, scratch: { cell?: IBufferCell }): boolean {
  const cell = line.getCell(x, scratch.cell);
  if (cell === undefined) return false;
  scratch.cell = cell;
  return cell.getChars() === '' && cell.getWidth() === 1 && hasPenBeyondBackground(cell);
}

/** Rewrites column x with its real content (the wide character covering it, if any). */
function repaint(line: IBufferLine, y: number, x: number): string {
  const cell = line.getCell(x);
  if (cell === undefined) return '';
  if (cell.getWidth() === 0 && x > 0) return repaint(line, y, x - 1);
  if (cell.getChars() === '') return cup(y, x) + backgroundSgr(cell) + '\x1b[X';
  return cup(y, x) + absoluteSgr(cell) + cell.getChars();
}

/** Blanks column `target` with its pen by printing over the wide char's other half at `printAt`. */
function blankWithPen(line: IBufferLine, y: number, target: number, wideAt: number, printAt: number): string {
  const cell = line.getCell(target);
  if (cell === undefined) return '';
  return cup(y, wideAt) + WIDE + cup(y, printAt) + absoluteSgr(cell) + NARROW;
}

function rowSequence(line: IBufferLine, y: number, cols: number, scratch: { cell?: IBufferCell }): string {
  let out = '';
  for (let start = 0; start < cols; start++) {
    if (!isOrphan(line, start, scratch)) continue;
    let end = start;
    while (end + 1 < cols && isOrphan(line, end + 1, scratch)) end++;
    if (start > 0) {
      // Right to left: each step borrows the cell on its left, which is the next target; the cell
      // left of the run is repainted at the end.
      for (let t = end; t >= start; t--) out += blankWithPen(line, y, t, t - 1, t - 1);
      out += repaint(line, y, start - 1);
    } else if (end + 1 < cols) {
      // The run starts at column 0: left to right, borrowing the cell on the right instead.
      for (let t = start; t <= end; t++) out += blankWithPen(line, y, t, t, t + 1);
      out += repaint(line, y, end + 1);
    }
    start = end;
  }
  return out;
}

export function orphanCellsSequence(buffer: IBuffer, cols: number, rows: number): string {
  if (cols < 2) return '';
  let out = '';
  const scratch: { cell?: IBufferCell } = {};
  for (let y = 0; y < rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    if (line !== undefined) out += rowSequence(line, y, cols, scratch);
  }
  return out;
}
