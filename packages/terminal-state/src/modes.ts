/**
 * Terminal modes the serialize addon does not write (it covers DECCKM, DECNKM, bracketed paste,
 * IRM, DECOM, reverse wrap, focus events, DECAWM and the mouse *tracking* mode). None of these
 * sequences moves the cursor, so they can follow the final cursor placement. Each is emitted only
 * when it differs from the state after a reset, except cursor visibility (see below).
 */
import type { CoreState, CursorShape } from './xterm-private';

const SHAPE_BASE: Record<CursorShape, number> = { block: 1, underline: 3, bar: 5 };

/** DECSCUSR: odd = blinking, even = steady. */
function cursorShapeSequence(shape: CursorShape | undefined, blink: boolean | undefined): string {
  if (shape === undefined) return '';
  const blinkOffset = blink === false ? 1 : 0;
  return `\x1b[${SHAPE_BASE[shape] + blinkOffset} q`;
}

function mouseEncodingSequence(encoding: string): string {
  // Without this a client in SGR mouse mode (what every modern TUI asks for) would send
  // X10-encoded reports, which apps like vim/htop misread.
  if (encoding === 'SGR') return '\x1b[?1006h';
  if (encoding === 'SGR_PIXELS') return '\x1b[?1016h';
  return '';
}

export function extraModesSequence(state: CoreState, convertEol: boolean): string {
  let out = '';
  // Always explicit: xterm.js reset() (what clients call before a keyframe) does not clear the
  // hidden-cursor flag, so a cursor hidden before the reset would otherwise stay hidden.
  out += state.cursorHidden ? '\x1b[?25l' : '\x1b[?25h';
  out += mouseEncodingSequence(state.mouseEncoding);
  out += cursorShapeSequence(state.cursorShape, state.cursorBlink);
  // LNM (CSI 20 h) is stored by xterm.js as the convertEol option.
  if (convertEol) out += '\x1b[20h';
  return out;
}
