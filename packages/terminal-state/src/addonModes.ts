/**
 * The terminal modes, as the serialize addon writes them: DECCKM, application keypad, bracketed
 * paste, IRM, DECOM, reverse wraparound, focus events, DECAWM and the mouse tracking mode.
 *
 * The addon has no modes-only call: `serialize()` appends them after the cells. We serialize a
 * single row with and without modes and keep the difference, so which modes exist (and how they
 * are written) stays the library's business. Its cell output is not used (see screenPainter.ts).
 */
import type { SerializeAddon } from './xterm';

/**
 * The addon writes the application keypad as DECNKM (`CSI ? 66 h`), which tmux and other
 * terminals ignore; programs (vim, less) ask for it with DECKPAM (`ESC =`), which every terminal
 * honours. xterm.js sets the same flag for both.
 */
const DECNKM_SET = '\x1b[?66h';
const DECKPAM = '\x1b=';

export function addonModes(addon: SerializeAddon): string {
  const range = { start: 0, end: 0 };
  const withoutModes = addon.serialize({ range, excludeAltBuffer: true, excludeModes: true });
  const withModes = addon.serialize({ range, excludeAltBuffer: true });
  if (!withModes.startsWith(withoutModes)) {
    throw new Error('@pty-ws/terminal-state: unexpected SerializeAddon output layout');
  }
  return withModes.slice(withoutModes.length).replace(DECNKM_SET, DECKPAM);
}
