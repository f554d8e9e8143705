/**
 * Character-set state: designations (SCS, `ESC ( 0` ...), the GL shift (SO / SI / LS2 / LS3) and
 * the charset saved with the cursor (DECSC).
 *
 * curses apps switch G0 to DEC Special Graphics around line-drawing runs (`ESC ( 0 qqq ESC ( B`). A
 * keyframe taken between the two would otherwise make the following live bytes print as letters
 * on the client. xterm.js keeps the tables but not their designators, so we recognise the only
 * table modern software uses (DEC Special Graphics) by two of its glyphs. The national
 * replacement sets (UK, Dutch, ...) are restored as US ASCII (documented limitation).
 */

export type Charset = Readonly<Record<string, string>> | undefined;

const DESIGNATE_G = ['(', ')', '*', '+'] as const;
const SHIFT_TO_GL = ['\x0f', '\x0e', '\x1bn', '\x1bo'] as const; // SI, SO, LS2, LS3

function isDecSpecialGraphics(charset: Charset): boolean {
  return charset !== undefined && charset['q'] === '\u2500' && charset['x'] === '\u2502';
}

/** `ESC ( 0` style designation of G`g`; US ASCII (`B`) for everything we cannot name. */
export function designate(g: number, charset: Charset): string {
  return `\x1b${DESIGNATE_G[g] ?? '('}${isDecSpecialGraphics(charset) ? '0' : 'B'}`;
}

export function isDefaultCharset(charset: Charset): boolean {
  return !isDecSpecialGraphics(charset);
}

export function sameCharset(a: Charset, b: Charset): boolean {
  return isDecSpecialGraphics(a) === isDecSpecialGraphics(b);
}

/** Designates G0..G3 and shifts `glevel` into GL; the effective charset is then `tables[glevel]`. */
export function charsetSequence(tables: ReadonlyArray<Charset>, glevel: number): string {
  let out = '';
  DESIGNATE_G.forEach((_, g) => {
    if (!isDefaultCharset(tables[g])) out += designate(g, tables[g]);
  });
  // After a reset GL is G0, so only a non-zero level needs a shift.
  if (glevel > 0 && glevel < SHIFT_TO_GL.length) out += SHIFT_TO_GL[glevel];
  return out;
}
