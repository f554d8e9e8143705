/**
 * Cursor placement with absolute addressing.
 *
 * The serialize addon restores the cursor with *relative* moves from the last cell it wrote. That
 * breaks as soon as anything homes the cursor afterwards (it appends DECSET 6 — origin mode —
 * which homes; so does the DECSTBM we add) and it cannot express the "wrap pending" state where
 * xterm.js keeps the cursor at x === cols after the last column was written. We therefore place
 * the cursor ourselves with CUP; a pending wrap is recreated by re-printing the last cell (same
 * character, same attributes), which is the only way to reach x === cols. The same applies to the
 * saved-cursor slots (ESC 7 / DECSET 1049 save x === cols too).
 */
import type { IBuffer } from '@xterm/headless';
import { absoluteSgr } from './sgr';

function cup(row: number, col: number): string {
  return `\x1b[${row + 1};${col + 1}H`;
}

/**
 * @param y screen row of the cursor in `buffer`; @param x 0..cols (cols = wrap pending)
 * @param rowOrigin subtracted from CUP rows: the top margin when origin mode (DECOM) is active
 * in the restored terminal at that point (the cursor is confined to the margins in that mode).
 */
export function placeCursor(buffer: IBuffer, y: number, x: number, cols: number, rowOrigin = 0): string {
  const row = y - rowOrigin;
  if (x < cols) return cup(row, x);

  const line = buffer.getLine(buffer.baseY + y);
  const last = line?.getCell(cols - 1);
  // A wide character's second half has width 0; re-print from its first half.
  const startCol = last !== undefined && last.getWidth() === 0 ? cols - 2 : cols - 1;
  const cell = line?.getCell(startCol);
  const chars = cell?.getChars() ?? '';
  if (cell === undefined || chars === '') {
    // Nothing to re-print (the cell was erased after the wrap became pending). From the normal
    // buffer, borrow the alternate one: xterm.js copies the cursor position between buffers on
    // 47h/47l and clears the alternate buffer on leaving, so printing there reaches x === cols
    // without touching this screen. Inside the alternate screen that would clear it, so the best
    // CUP can do is the last column (the next character then lands one cell early).
    if (buffer.type === 'normal') return '\x1b[?47h' + cup(y, cols - 1) + ' \x1b[?47l';
    return cup(row, cols - 1);
  }
  // Insert mode (IRM) may already be on: inserting at the last column discards exactly the cells
  // being re-printed, so the result is identical. Charsets are designated only after this.
  return cup(row, startCol) + absoluteSgr(cell) + chars;
}
