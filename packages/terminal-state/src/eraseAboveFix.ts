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

type EraseInDisplay = (params: { params: number[]; length: number }, respectProtect?: boolean) => boolean;

export function installEraseAboveFix(term: Terminal): void {
  const inputHandler = (term as unknown as { _core?: { _inputHandler?: { eraseInDisplay?: EraseInDisplay } } })._core
    ?._inputHandler;
  const eraseInDisplay = inputHandler?.eraseInDisplay;
  if (inputHandler === undefined || typeof eraseInDisplay !== 'function') return; // parserGuard still contains it

  const handler =
    (respectProtect: boolean) =>
    (params: (number | number[])[]): boolean => {
      if (params[0] !== 1) return false;
      const buffer = term.buffer.active;
      const cursorX = Math.min(buffer.cursorX, term.cols);
      if (buffer.cursorY + 1 < buffer.length || cursorX + 1 < term.cols) return false;
      return eraseInDisplay.call(inputHandler, { params: [2], length: 1 }, respectProtect);
    };
  term.parser.registerCsiHandler({ final: 'J' }, handler(false));
  term.parser.registerCsiHandler({ prefix: '?', final: 'J' }, handler(true));
}
