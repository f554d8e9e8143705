/**
 * Works around an xterm.js 6 crash in ED 1 / DECSED 1 ("erase above", `CSI 1 J` / `CSI ? 1 J`).
 *
 * With the cursor in the last column of the last line of the buffer (a fresh session before its
 * first scroll, cursor at the bottom-right), InputHandler.eraseInDisplay clears `isWrapped` on
 * `lines.get(y + 1)` — a screen row used as a buffer index — which does not exist, and throws
 * "Cannot set properties of undefined (setting 'isWrapped')". In exactly that position "erase above,
 * including the cursor cell" erases the whole screen, so we run ED 2 / DECSED 2 instead. Other
 * positions go to xterm's own handler.
 */
import type { Terminal } from './xterm';
import { inputHandlerHooks } from './xterm-private';

export function installEraseAboveFix(term: Terminal): void {
  const eraseInDisplay = inputHandlerHooks(term).eraseInDisplay;
  if (eraseInDisplay === undefined) return; // parserGuard still contains the crash

  const handler =
    (respectProtect: boolean) =>
    (params: (number | number[])[]): boolean => {
      if (params[0] !== 1) return false;
      const buffer = term.buffer.active;
      const cursorX = Math.min(buffer.cursorX, term.cols);
      if (buffer.cursorY + 1 < buffer.length || cursorX + 1 < term.cols) return false;
      return eraseInDisplay([2], respectProtect);
    };
  term.parser.registerCsiHandler({ final: 'J' }, handler(false));
  term.parser.registerCsiHandler({ prefix: '?', final: 'J' }, handler(true));
}
