/**
 * Repaints rows that hold no characters, when the serialize addon gets them wrong:
 *
 *  - coloured blank rows: the addon stops at the last row it considers content (a character or a
 *    style change) and drops every blank row after it, even a coloured one: a dialog-style app
 *    that does `CSI 44m CSI 2J` and draws only near the top would lose its blue background below;
 *  - blank rows whose next row is a soft-wrapped continuation: the addon forces the wrap by
 *    filling the row with '-' and erasing them again, but for an all-blank row it emits `CSI 0 C`
 *    (which moves one column, not zero) and leaves a '-' in the first column.
 *
 * Repainting such a row is always safe: a row the addon wrote correctly is painted to the same
 * state (erasing does not touch the next row's wrapped flag).
 */
import type { IBuffer, IBufferCell } from '@xterm/headless';
import { backgroundSgr } from './sgr';

function isBlank(cell: IBufferCell): boolean {
  return cell.getChars() === '' && cell.getWidth() === 1;
}

function blankRowRepaint(buffer: IBuffer, y: number, cols: number): string {
  const line = buffer.getLine(buffer.baseY + y);
  if (line === undefined) return '';
  const runs: Array<{ sgr: string; length: number }> = [];
  let coloured = false;
  for (let x = 0; x < cols; x++) {
    const cell = line.getCell(x);
    if (cell === undefined || !isBlank(cell)) return '';
    if (!cell.isBgDefault()) coloured = true;
    const sgr = backgroundSgr(cell);
    const last = runs[runs.length - 1];
    if (last !== undefined && last.sgr === sgr) last.length++;
    else runs.push({ sgr, length: 1 });
  }
  // Below the last screen row getLine returns undefined.
  const nextIsWrapped = buffer.getLine(buffer.baseY + y + 1)?.isWrapped === true;
  if (!coloured && !nextIsWrapped) return '';
  // ECH erases from the cursor with the pen's background; CUF moves on to the next run.
  return `\x1b[${y + 1};1H` + runs.map((run) => `${run.sgr}\x1b[${run.length}X\x1b[${run.length}C`).join('');
}

export function blankRowsSequence(buffer: IBuffer, cols: number, rows: number): string {
  let out = '';
  for (let y = 0; y < rows; y++) out += blankRowRepaint(buffer, y, cols);
  return out;
}
