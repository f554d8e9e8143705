/**
 * Paints a buffer's screen — every cell's character, width and attributes, and the soft-wrap flag
 * of each row — into a freshly reset terminal.
 *
 * This replaces the serialize addon's cell output, which randomized round-trip tests showed to be
 * wrong in ways that cannot be patched afterwards (minimised counterexamples, xterm.js 6 / addon
 * 0.14):
 *  - `CSI 1m a CSI 2m b` then a bold-only cell: it diffs dim off as SGR 22, which also clears bold;
 *  - a soft-wrapped row starting with a blank cell: operator precedence in its wrap check makes it
 *    rely on a natural wrap but it then emits cursor moves, which do not wrap, so the row lands one
 *    row up and later rows can shift;
 *  - an all-blank row followed by a wrapped row: `CSI 0 C` (moves one column) leaves a '-' behind;
 *  - coloured blank rows after the last "content" row are dropped (`CSI 44m CSI 2J` backgrounds).
 * Here every row is addressed with CUP, every pen is absolute, coloured blanks are erased with
 * their background, and a wrapped row gets its flag by printing past the end of the row above
 * (that borrowed cell is then repainted), so no row can disturb another.
 */
import type { IBuffer, IBufferCell, IBufferLine } from '@xterm/headless';
import { absoluteSgr, backgroundSgr, sameAttributes } from './sgr';

function cup(y: number, x: number): string {
  return `\x1b[${y + 1};${x + 1}H`;
}

function isBlank(cell: IBufferCell | undefined): cell is IBufferCell {
  return cell !== undefined && cell.getChars() === '' && cell.getWidth() === 1;
}

/** Blank with default attributes: what a reset terminal already has, nothing to write. */
function isDefaultBlank(cell: IBufferCell | undefined): boolean {
  return isBlank(cell) && cell.isAttributeDefault();
}

/**
 * Cell objects reused for a whole paint: getCell without one allocates a cell (with its extended
 * attributes) per call, about 1 MB per keyframe of a full 120×30 screen, which made the young
 * generation fill up every few hundred keystrokes of an echo test and its scavenges show in p99.
 */
interface PaintCells {
  /** The cell being painted. */
  cell: IBufferCell;
  /** A copy of the cell the current pen was computed from. */
  pen: IBufferCell;
  /** Look-ahead: trailing blanks, the rest of an erased run. */
  next: IBufferCell;
}

/** The row's cells from column 0: printed characters and erased runs of blank cells. */
function paintRow(line: IBufferLine, cols: number, cells: PaintCells): string {
  let end = cols;
  while (end > 0 && isDefaultBlank(line.getCell(end - 1, cells.next))) end--;
  let out = '';
  let pen = '';
  // SGR strings are only built when attributes change from those of `cells.pen`.
  let hasPen = false;
  let penBlank = false;
  for (let x = 0; x < end;) {
    const cell = line.getCell(x, cells.cell) as IBufferCell;
    const blank = cell.getChars() === '';
    if (!hasPen || blank !== penBlank || !sameAttributes(cell, cells.pen, blank)) {
      const sgr = blank ? backgroundSgr(cell) : absoluteSgr(cell);
      if (sgr !== pen) out += sgr;
      pen = sgr;
      line.getCell(x, cells.pen);
      hasPen = true;
      penBlank = blank;
    }
    if (blank) {
      // ECH erases with the pen's background only — exactly what a blank cell normally holds
      // (blank cells with more attributes are handled by orphanCells.ts).
      let run = 1;
      for (
        let next = line.getCell(x + run, cells.next);
        x + run < end && isBlank(next) && sameAttributes(next, cell, true);
      ) {
        run++;
        next = line.getCell(x + run, cells.next);
      }
      out += `\x1b[${run}X` + (x + run < end ? `\x1b[${run}C` : '');
      x += run;
    } else if (cell.getWidth() === 2 && x + 1 >= cols) {
      // A wide character cut in half by a narrowing resize of the alternate buffer (xterm.js does
      // not reflow it): printing it would wrap into the next row, so the column stays blank.
      out += '\x1b[0m\x1b[X';
      pen = '\x1b[0m';
      hasPen = false;
      x += 1;
    } else {
      out += cell.getChars();
      x += Math.max(cell.getWidth(), 1);
    }
  }
  return out;
}

/** The cell (or wide character) covering the last column, printed again. */
function repaintLastColumn(line: IBufferLine, y: number, cols: number): string {
  const last = line.getCell(cols - 1);
  const x = last !== undefined && last.getWidth() === 0 ? cols - 2 : cols - 1;
  const cell = line.getCell(x);
  if (cell === undefined) return '';
  if (cell.getChars() === '' || x + cell.getWidth() > cols) return cup(y, x) + backgroundSgr(cell) + '\x1b[X';
  return cup(y, x) + absoluteSgr(cell) + cell.getChars();
}

/**
 * Row 0 is a continuation when its line started in scrollback. Wrap from row 0 into row 1, then
 * scroll up by one (SU drops the top row without touching scrollback): the marked row becomes
 * row 0. Its stray space is erased with ECH, which keeps the flag.
 */
function wrappedFirstRow(cols: number): string {
  return cup(0, cols - 1) + '\x1b[0m  \x1b[S' + cup(0, 0) + `\x1b[${cols}X`;
}

export function paintScreen(buffer: IBuffer, cols: number, rows: number): string {
  const cells: PaintCells = { cell: buffer.getNullCell(), pen: buffer.getNullCell(), next: buffer.getNullCell() };
  let out = buffer.getLine(buffer.baseY)?.isWrapped === true && rows > 1 ? wrappedFirstRow(cols) : '';
  for (let y = 0; y < rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    if (line === undefined) continue;
    const above = y > 0 ? buffer.getLine(buffer.baseY + y - 1) : undefined;
    if (line.isWrapped && above !== undefined) {
      // Two characters from the last column: the second wraps and marks this row as a
      // continuation. Then the borrowed cell of the row above is put back.
      out += cup(y - 1, cols - 1) + '\x1b[0m  ' + repaintLastColumn(above, y - 1, cols);
    }
    const row = paintRow(line, cols, cells);
    // An empty wrapped row still needs the space printed by the wrap above erased.
    if (row !== '' || line.isWrapped) out += cup(y, 0) + (row === '' ? '\x1b[0m\x1b[X' : row);
  }
  return out;
}
