/**
 * Cursor placement with absolute addressing.
 *
 * The serialize addon restores the cursor with *relative* moves from the last cell it wrote. That
 * breaks as soon as anything homes the cursor afterwards (it appends DECSET 6 — origin mode —
 * which homes; so does DECSTBM) and it cannot express two states xterm.js can be in:
 *  - wrap pending: after writing the last column the cursor sits at x === cols; only printing
 *    gets there;
 *  - outside the margins in origin mode (e.g. after leaving the alternate screen with 1047l):
 *    CUP, ESC 8 and friends are confined to the margins then.
 * xterm.js copies the cursor position verbatim between buffers on DECSET/DECRST 47 and clears the
 * alternate buffer on leaving, so from the normal screen we place the cursor in the (disposable)
 * alternate buffer and switch back. Inside the alternate screen a pending wrap is recreated by
 * printing the last cell again (same character, same pen); the rest cannot be expressed there.
 */
import type { IBuffer } from '@xterm/headless';
import { absoluteSgr } from './sgr';

export interface CursorPlacement {
  /** Active margins when origin mode (DECOM) is on in the restored terminal at that point. */
  readonly origin?: { readonly top: number; readonly bottom: number };
  /** The buffer's content is thrown away afterwards: anything may be printed to get there. */
  readonly disposable?: boolean;
}

function cup(row: number, col: number): string {
  return `\x1b[${row + 1};${col + 1}H`;
}

/** @param y screen row in `buffer`; @param x 0..cols (cols = wrap pending) */
export function placeCursor(buffer: IBuffer, y: number, x: number, cols: number, how: CursorPlacement = {}): string {
  const pending = x >= cols;
  const top = how.origin?.top ?? 0;
  const outside = how.origin !== undefined && (y < how.origin.top || y > how.origin.bottom);
  if (!pending && !outside) return cup(y - top, x);
  // A space in the last column leaves the cursor at x === cols.
  if (how.disposable === true) return cup(y, cols - 1) + ' ';
  if (buffer.type === 'normal')
    return '\x1b[?47h' + cup(y, pending ? cols - 1 : x) + (pending ? ' ' : '') + '\x1b[?47l';

  // Inside the alternate screen.
  const row = Math.min(Math.max(y, top), how.origin?.bottom ?? y) - top;
  if (!pending) return cup(row, x);
  const line = buffer.getLine(buffer.baseY + y);
  const last = line?.getCell(cols - 1);
  // A wide character's second half has width 0; re-print from its first half.
  const startCol = last !== undefined && last.getWidth() === 0 ? cols - 2 : cols - 1;
  const cell = line?.getCell(startCol);
  const chars = cell?.getChars() ?? '';
  // Nothing to re-print (the cell was erased after the wrap became pending): the last column is
  // the best CUP can do; the next character then lands one cell early.
  if (cell === undefined || chars === '') return cup(row, cols - 1);
  // Insert mode (IRM) may already be on: inserting at the last column discards exactly the cells
  // being re-printed, so the result is identical. Charsets are designated after this.
  return cup(row, startCol) + absoluteSgr(cell) + chars;
}
