/**
 * Builds a `vt100-screen-state-v1` string: escape sequences that, written into a freshly reset
 * xterm.js terminal of the same size, reproduce the screen, cursor, pen, active buffer and modes.
 *
 * The serialize addon does the hard part — every cell's character, width and attributes, wrapped
 * lines, background-colour erase — and we compose its pieces with what it leaves out or gets wrong:
 *
 *  1. Alternate screen: the addon appends `CSI ?1049h CSI H` + alt content right after the normal
 *     buffer, whose tail has just set the *current* pen. 1049h then clears the alt screen with that
 *     pen's background, and the alt content (diffed against a default pen) leaves those cells
 *     coloured. It also makes 1049h save the wrong cursor/pen, which the app gets back when it
 *     leaves the alt screen. We take the addon's alt content alone and enter the alt screen
 *     ourselves from the normal buffer's saved cursor and pen, then clear with the default pen.
 *  2. Blank rows with a background colour after the last "content" row are dropped (blankRows.ts).
 *     Blank cells carrying more than a background colour come back plain (orphanCells.ts). A
 *     soft-wrapped row that starts with a blank cell derails it (screenPainter.ts).
 *  3. Scroll regions (DECSTBM) are not serialized; a TUI's later scrolling depends on them.
 *  4. The DECSC saved cursors (ESC 7; one per buffer) are not serialized.
 *  5. Cursor: the addon's relative moves are undone by its own trailing DECSET 6 (origin mode
 *     homes the cursor) and cannot express a pending wrap; see cursor.ts.
 *  6. Pen: re-set absolutely after the cursor step, which may have printed a cell.
 *  7. Modes it omits: cursor visibility, mouse encoding, cursor shape, LNM (see modes.ts), and
 *     designated character sets (charsets.ts).
 */
import type { IBuffer } from '@xterm/headless';
import type { SerializeAddon, Terminal } from './xterm';
import { readCoreState, type BufferCoreState } from './internals';
import { absoluteSgr, isDefaultAttributes } from './sgr';
import { placeCursor } from './cursor';
import { extraModesSequence } from './modes';
import { charsetSequence, designate, isDefaultCharset } from './charsets';
import { blankRowsSequence } from './blankRows';
import { orphanCellsSequence } from './orphanCells';
import { needsPainter, paintScreen } from './screenPainter';

/** What the addon puts between the normal and the alternate buffer (SerializeAddon.serialize). */
const ADDON_ALT_MARKER = '\x1b[?1049h\x1b[H';

/** DECSTBM, only when not the full screen (the state after a reset). It homes the cursor. */
function scrollRegion(state: BufferCoreState, rows: number): string {
  if (state.scrollTop === 0 && state.scrollBottom === rows - 1) return '';
  return `\x1b[${state.scrollTop + 1};${state.scrollBottom + 1}r`;
}

/**
 * Recreates a DECSC slot: cursor, pen and charset are put in place and saved with `save` (ESC 7 or
 * DECSET 1049). Moves the cursor and changes the pen (both finalised later); G0 is put back to US
 * ASCII so the rest of the keyframe prints literally.
 */
function saveSlot(buffer: IBuffer, state: BufferCoreState, cols: number, save: string): string {
  const charset = isDefaultCharset(state.savedCharset) ? '' : designate(0, state.savedCharset);
  const restoreG0 = charset === '' ? '' : designate(0, undefined);
  const position = placeCursor(buffer, state.savedY, state.savedX, cols);
  return position + absoluteSgr(state.savedPen) + charset + save + restoreG0;
}

/** The ESC 7 slot, only when it differs from its state after a reset. */
function savedCursor(buffer: IBuffer, state: BufferCoreState, cols: number): string {
  const isDefault =
    state.savedX === 0 && state.savedY === 0 && isDefaultAttributes(state.savedPen) && isDefaultCharset(state.savedCharset);
  return isDefault ? '' : saveSlot(buffer, state, cols, '\x1b7');
}

/** Cuts the addon's output into the parts we recompose. Only the screen (no scrollback) is used. */
function addonParts(addon: SerializeAddon, altActive: boolean): { normal: string; alt: string; modes: string } {
  const normal = addon.serialize({ scrollback: 0, excludeAltBuffer: true, excludeModes: true });
  const strip = (whole: string, prefix: string): string => {
    if (!whole.startsWith(prefix)) throw new Error('@pty-ws/terminal-state: unexpected SerializeAddon output layout');
    return whole.slice(prefix.length);
  };
  const modes = strip(addon.serialize({ scrollback: 0, excludeAltBuffer: true }), normal);
  const alt = altActive ? strip(addon.serialize({ scrollback: 0, excludeModes: true }), normal + ADDON_ALT_MARKER) : '';
  return { normal, alt, modes };
}

/**
 * A buffer's cells: the addon's output plus fixes for the cells it gets wrong, or our own painter
 * for screens whose soft-wrapped rows would derail the addon (screenPainter.ts).
 */
function bufferContent(addonContent: string, buffer: IBuffer, cols: number, rows: number): string {
  const cells = needsPainter(buffer, rows) ? paintScreen(buffer, cols, rows) : addonContent + blankRowsSequence(buffer, cols, rows);
  return cells + orphanCellsSequence(buffer, cols, rows);
}

export function serializeScreenState(term: Terminal, addon: SerializeAddon): string {
  const { cols, rows } = term;
  const core = readCoreState(term);
  const buffer: IBuffer = term.buffer.active;
  const altActive = buffer.type === 'alternate';
  const parts = addonParts(addon, altActive);
  const active = altActive ? core.alt : core.normal;

  let out = bufferContent(parts.normal, term.buffer.normal, cols, rows);
  out += scrollRegion(core.normal, rows);
  if (altActive) {
    // 1049h saves cursor, pen and charset into the normal buffer's DECSC slot: the original's.
    out += saveSlot(term.buffer.normal, core.normal, cols, '\x1b[?1049h');
    out += '\x1b[0m\x1b[2J\x1b[H' + bufferContent(parts.alt, buffer, cols, rows);
    out += scrollRegion(core.alt, rows);
    // The normal buffer's slot was just filled by 1049h; the alt buffer has its own.
    out += savedCursor(buffer, core.alt, cols);
  } else {
    // xterm.js keeps the alt buffer's DECSC slot across alt-screen sessions; an app that re-enters
    // the alt screen and does ESC 8 without ESC 7 lands there. 47h/47l switch without saving.
    const altSaved = savedCursor(term.buffer.alternate, core.alt, cols);
    if (altSaved !== '') out += '\x1b[?47h' + altSaved + '\x1b[?47l';
    out += savedCursor(buffer, core.normal, cols);
  }
  out += parts.modes;
  out += placeCursor(buffer, active.cursorY, active.cursorX, cols, term.modes.originMode ? active.scrollTop : 0);
  out += absoluteSgr(core.pen);
  out += extraModesSequence(core, term.options.convertEol === true);
  out += charsetSequence(core.charsets, core.glevel, core.charset);
  return out;
}
