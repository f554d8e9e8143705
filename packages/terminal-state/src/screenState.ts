/**
 * Builds a `vt100-screen-state-v1` string: escape sequences that, written into a freshly reset
 * xterm.js terminal of the same size, reproduce the screen (every cell, soft wraps), the cursor
 * (including a pending wrap), the pen, the active buffer, scroll margins, saved cursors, modes and
 * character sets.
 *
 * Order matters, because later steps rely on the restored terminal still being in its reset
 * state (no margins, no origin or insert mode, US ASCII) and some steps move the cursor:
 *  1. the normal screen's cells (screenPainter.ts, orphanCells.ts);
 *  2. the normal buffer's margins; if the alternate screen is active: enter it with DECSET 1049
 *     from the normal buffer's saved cursor/pen/charset (1049 saves them; the app gets them back
 *     when it leaves), clear it with the default pen, paint its cells and margins;
 *  3. the active buffer's DECSC slot (ESC 7), and the inactive alt buffer's;
 *  4. modes, from the serialize addon (DECSET 6 among them homes the cursor, hence before 5.);
 *  5. the cursor, absolutely (cursor.ts), then the pen, absolutely;
 *  6. modes the addon leaves out (modes.ts), the window title (title.ts) and the character sets
 *     (charsets.ts, charsetPlan).
 */
import type { IBuffer } from '@xterm/headless';
import type { SerializeAddon, Terminal } from './xterm';
import { latentUnderlineColor, readCoreState, type BufferCoreState, type CoreState } from './xterm-private';
import { absoluteSgr, isDefaultAttributes } from './sgr';
import { placeCursor } from './cursor';
import { extraModesSequence } from './modes';
import { charsetSequence, designate, isDefaultCharset, sameCharset } from './charsets';
import { orphanCellsSequence } from './orphanCells';
import { paintScreen } from './screenPainter';
import { addonModes } from './addonModes';
import { titleSequence } from './title';

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
function saveSlot(buffer: IBuffer, state: BufferCoreState, cols: number, save: string, disposable = false): string {
  const charset = isDefaultCharset(state.savedCharset) ? '' : designate(0, state.savedCharset);
  const restoreG0 = charset === '' ? '' : designate(0, undefined);
  const position = placeCursor(buffer, state.savedY, state.savedX, cols, { disposable });
  return position + absoluteSgr(state.savedPen) + charset + save + restoreG0;
}

/** The ESC 7 slot, only when it differs from its state after a reset. */
function savedCursor(buffer: IBuffer, state: BufferCoreState, cols: number, disposable = false): string {
  const isDefault =
    state.savedX === 0 &&
    state.savedY === 0 &&
    isDefaultAttributes(state.savedPen) &&
    isDefaultCharset(state.savedCharset);
  return isDefault ? '' : saveSlot(buffer, state, cols, '\x1b7', disposable);
}

function cells(buffer: IBuffer, cols: number, rows: number): string {
  return paintScreen(buffer, cols, rows) + orphanCellsSequence(buffer, cols, rows);
}

export function serializeScreenState(term: Terminal, addon: SerializeAddon, title?: string): string {
  const { cols, rows } = term;
  const core = readCoreState(term);
  const buffer: IBuffer = term.buffer.active;
  const altActive = buffer.type === 'alternate';
  const active = altActive ? core.alt : core.normal;

  let out = cells(term.buffer.normal, cols, rows);
  out += scrollRegion(core.normal, rows);
  if (altActive) {
    // 1049h saves cursor, pen and charset into the normal buffer's DECSC slot: the original's.
    out += saveSlot(term.buffer.normal, core.normal, cols, '\x1b[?1049h');
    out += '\x1b[0m\x1b[2J' + cells(buffer, cols, rows);
    out += scrollRegion(core.alt, rows);
    // The normal buffer's slot was just filled by 1049h; the alt buffer has its own.
    out += savedCursor(buffer, core.alt, cols);
  } else {
    // xterm.js keeps the alt buffer's DECSC slot across alt-screen sessions; an app that re-enters
    // the alt screen and does ESC 8 without ESC 7 lands there. 47h/47l switch without saving, and
    // the alt buffer is cleared on leaving, so its content is disposable here.
    const altSaved = savedCursor(term.buffer.alternate, core.alt, cols, true);
    if (altSaved !== '') out += '\x1b[?47h' + altSaved + '\x1b[?47l';
    out += savedCursor(buffer, core.normal, cols);
  }
  out += addonModes(addon);
  const { charsets, viaSavedCursor } = charsetPlan(core, active);
  // Charsets normally come last so that nothing we print is translated; see charsetPlan.
  if (viaSavedCursor) out += charsets + '\x1b8';
  const origin = term.modes.originMode ? { top: active.scrollTop, bottom: active.scrollBottom } : undefined;
  out += placeCursor(buffer, active.cursorY, active.cursorX, cols, origin === undefined ? {} : { origin });
  out += absoluteSgr(core.pen);
  const latent = latentUnderlineColor(core.pen);
  if (latent !== '') out += `\x1b[${latent}m`;
  out += extraModesSequence(core, term.options.convertEol === true);
  out += titleSequence(title);
  if (!viaSavedCursor) out += charsets;
  return out;
}

/**
 * xterm.js can print with a charset other than the table shifted into GL: ESC 8 and DECRST 1049
 * restore the *saved* charset without touching the tables (e.g. `ESC ( 0` then leaving the alt
 * screen prints US ASCII while G0 still holds line drawing, until the next SI/SO). Designations
 * cannot express that; ESC 8 can, when the active buffer's saved slot holds that very charset —
 * which is how the state arises. ESC 8 also moves the cursor and pen, which are set after it.
 * Otherwise the shifted table is replaced by the effective charset (what is printed now wins).
 */
function charsetPlan(core: CoreState, active: BufferCoreState): { charsets: string; viaSavedCursor: boolean } {
  const shifted = core.charsets[core.glevel];
  if (sameCharset(core.charset, shifted))
    return { charsets: charsetSequence(core.charsets, core.glevel), viaSavedCursor: false };
  if (sameCharset(core.charset, active.savedCharset)) {
    return { charsets: charsetSequence(core.charsets, core.glevel), viaSavedCursor: true };
  }
  const tables = core.charsets.slice();
  tables[core.glevel] = core.charset;
  return { charsets: charsetSequence(tables, core.glevel), viaSavedCursor: false };
}
