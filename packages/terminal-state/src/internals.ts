/**
 * Read-only access to xterm.js core state that the public API does not expose but a keyframe must
 * carry: the SGR pen, the scroll margins, the DECSC saved cursors (both buffers), cursor
 * visibility, the mouse report encoding, the cursor shape set by DECSCUSR, the character sets,
 * and the underline style and colour of cells and pens (SGR 4:x, 58).
 *
 * The serialize addon itself reads `_core._inputHandler._curAttrData` the same way (xterm.js issue
 * #3677). Every field is checked at runtime: if an xterm.js upgrade moves one, `readCoreState`
 * throws a descriptive error (caught by the tests) instead of producing subtly wrong keyframes.
 */
import type { Terminal } from './xterm';
import type { AttributeSource } from './sgr';
import type { Charset } from './charsets';

/** Per-buffer state, rows relative to the top of the screen (not to the scrollback). */
export interface BufferCoreState {
  /** 0..cols; `cols` means "last column written, wrap pending" (DECAWM). */
  readonly cursorX: number;
  readonly cursorY: number;
  /** Inclusive DECSTBM margins, 0-based. */
  readonly scrollTop: number;
  readonly scrollBottom: number;
  /** DECSC (ESC 7 / CSI s / DECSET 1049) saved cursor, pen and charset; x < cols, y < rows. */
  readonly savedX: number;
  readonly savedY: number;
  readonly savedPen: AttributeSource;
  readonly savedCharset: Charset;
}

export type CursorShape = 'block' | 'underline' | 'bar';

export interface CoreState {
  readonly pen: AttributeSource;
  readonly normal: BufferCoreState;
  readonly alt: BufferCoreState;
  readonly cursorHidden: boolean;
  /** Mouse report encoding: 'DEFAULT' (X10 bytes), 'SGR' (DECSET 1006) or 'SGR_PIXELS' (1016). */
  readonly mouseEncoding: string;
  /** Set by DECSCUSR; undefined means "the embedder's option" (the default). */
  readonly cursorShape: CursorShape | undefined;
  readonly cursorBlink: boolean | undefined;
  /** G0..G3 charset tables (undefined = US ASCII), the level shifted into GL, and the charset in
   * effect for printing (normally the shifted table, see charsets.ts). */
  readonly charsets: ReadonlyArray<Charset>;
  readonly glevel: number;
  readonly charset: Charset;
}

type Obj = Record<string, unknown>;

/**
 * The underline getters of xterm's AttributeData, which every cell (CellData) and pen inherits.
 * Not in the public IBufferCell typings; `readCoreState` checks them on the pen, so a renamed
 * method fails every snapshot loudly instead of dropping the style silently.
 */
interface UnderlineAttributes {
  /** 0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed. */
  getUnderlineStyle(): number;
  getUnderlineColor(): number;
  isUnderlineColorRGB(): boolean;
  isUnderlineColorPalette(): boolean;
  isUnderlineColorDefault(): boolean;
}

const UNDERLINE_METHODS = [
  'getUnderlineStyle',
  'getUnderlineColor',
  'isUnderlineColorRGB',
  'isUnderlineColorPalette',
  'isUnderlineColorDefault',
] as const;

/** BgFlags.HAS_EXTENDED in the packed background word: underline style and colour (and a
 * hyperlink) live in a separate object. */
export const HAS_EXTENDED = 0x10000000;

/** Attributes.CM_P256 / CM_RGB: colour modes in bits 24-25 of a packed colour. */
const CM_P256 = 0x2000000;
const CM_RGB = 0x3000000;

function checkUnderlineMethods(attrs: AttributeSource, path: string): void {
  for (const name of UNDERLINE_METHODS) {
    if (typeof (attrs as unknown as Obj)[name] !== 'function') {
      throw new Error(`@pty-ws/terminal-state: xterm.js internal "${path}.${name}()" not found (xterm upgraded?)`);
    }
  }
}

/** True when the attributes may carry more than a plain underline (xterm's extended attributes). */
export function hasExtendedAttributes(attrs: AttributeSource): boolean {
  const bg = (attrs as { bg?: unknown }).bg;
  // xterm's cells and pens keep the packed word; anything else is asked if it has the getters.
  if (typeof bg === 'number') return (bg & HAS_EXTENDED) !== 0;
  return typeof (attrs as unknown as Partial<UnderlineAttributes>).getUnderlineStyle === 'function';
}

/** SGR 4 style: 0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed. */
export function underlineStyle(attrs: AttributeSource): number {
  if (!attrs.isUnderline()) return 0;
  if (!hasExtendedAttributes(attrs)) return 1;
  // ESC 8 restores the underline flag but not the style object (SGR 0 in between leaves style 0
  // there): SGR can only say "underlined", which is what a terminal that saves both shows.
  return Math.max((attrs as unknown as UnderlineAttributes).getUnderlineStyle(), 1);
}

/**
 * The SGR 58 colour packed as xterm.js packs colours (0 = none, else the colour mode in bits
 * 24-25 and the colour below), without building a string: it is compared for every such cell.
 */
export function underlineColorKey(attrs: AttributeSource): number {
  if (!hasExtendedAttributes(attrs)) return 0;
  const u = attrs as unknown as UnderlineAttributes;
  if (u.isUnderlineColorDefault()) return 0;
  if (u.isUnderlineColorRGB()) return CM_RGB | u.getUnderlineColor();
  return u.isUnderlineColorPalette() ? CM_P256 | u.getUnderlineColor() : 0;
}

/**
 * The SGR 58 colour a pen keeps while underlining is off (`58;5;n` before `4`): xterm.js holds it
 * in the pen's extended attributes, which only count once an underline style is set.
 */
export function latentUnderlineColor(pen: AttributeSource): string {
  if (pen.isUnderline()) return '';
  const extended = field(pen, 'extended', '_curAttrData');
  return colorSubparams(num(extended, 'underlineColor', '_curAttrData.extended'));
}

/** A packed colour (ExtendedAttrs.underlineColor) as SGR 58 sub-parameters, '' for none. */
function colorSubparams(packed: number): string {
  const mode = packed & CM_RGB;
  const color = packed & 0xffffff;
  if (mode === CM_RGB) return `58:2::${(color >>> 16) & 0xff}:${(color >>> 8) & 0xff}:${color & 0xff}`;
  return mode === 0 ? '' : `58:5:${color & 0xff}`;
}

/**
 * The underline colour set with SGR 58, as sub-parameters (`58:5:n`, `58:2::r:g:b`), or '' when
 * the underline takes the text colour (SGR 59, the default). Only asked of underlined attributes.
 */
export function underlineColor(attrs: AttributeSource): string {
  return colorSubparams(underlineColorKey(attrs));
}

function field(owner: unknown, name: string, path: string): unknown {
  if (typeof owner !== 'object' || owner === null || !(name in owner)) {
    throw new Error(`@pty-ws/terminal-state: xterm.js internal "${path}.${name}" not found (xterm upgraded?)`);
  }
  return (owner as Obj)[name];
}

function num(owner: unknown, name: string, path: string): number {
  const v = field(owner, name, path);
  if (typeof v !== 'number')
    throw new Error(`@pty-ws/terminal-state: xterm.js internal "${path}.${name}" is not a number`);
  return v;
}

function attrs(owner: unknown, name: string, path: string): AttributeSource {
  const v = field(owner, name, path);
  if (typeof (v as Partial<AttributeSource> | null)?.isBold !== 'function') {
    throw new Error(`@pty-ws/terminal-state: xterm.js internal "${path}.${name}" is not attribute data`);
  }
  return v as AttributeSource;
}

function readBuffer(buffer: unknown, path: string, cols: number, rows: number): BufferCoreState {
  const ybase = num(buffer, 'ybase', path);
  return {
    cursorX: num(buffer, 'x', path),
    cursorY: num(buffer, 'y', path),
    scrollTop: num(buffer, 'scrollTop', path),
    scrollBottom: num(buffer, 'scrollBottom', path),
    // The slot as ESC 8 / DECRST 1049 would restore it: xterm.js stores savedY absolute (ybase + y)
    // and keeps stale values across scrolling and resizes, then clamps to the screen on restore.
    savedX: Math.min(Math.max(num(buffer, 'savedX', path), 0), cols - 1),
    savedY: Math.min(Math.max(num(buffer, 'savedY', path) - ybase, 0), rows - 1),
    savedPen: attrs(buffer, 'savedCurAttrData', path),
    savedCharset: charsetTable(field(buffer, 'savedCharset', path)),
  };
}

function charsetTable(v: unknown): Charset {
  return typeof v === 'object' && v !== null ? (v as Record<string, string>) : undefined;
}

function optionalShape(v: unknown): CursorShape | undefined {
  return v === 'block' || v === 'underline' || v === 'bar' ? v : undefined;
}

export function readCoreState(term: Terminal): CoreState {
  const core = field(term, '_core', 'Terminal');
  const inputHandler = field(core, '_inputHandler', '_core');
  const buffers = field(core, 'buffers', '_core');
  const coreService = field(core, 'coreService', '_core');
  const decPrivateModes = field(coreService, 'decPrivateModes', 'coreService');
  const mouseService = field(core, 'coreMouseService', '_core');
  const charsetService = field(core, '_charsetService', '_core');
  const charsets = field(charsetService, '_charsets', '_charsetService');
  const encoding = field(mouseService, 'activeEncoding', 'coreMouseService');
  const blink = (decPrivateModes as Obj)['cursorBlink'];
  const pen = attrs(inputHandler, '_curAttrData', '_inputHandler');
  checkUnderlineMethods(pen, '_inputHandler._curAttrData');
  return {
    pen,
    normal: readBuffer(field(buffers, 'normal', 'buffers'), 'buffers.normal', term.cols, term.rows),
    alt: readBuffer(field(buffers, 'alt', 'buffers'), 'buffers.alt', term.cols, term.rows),
    cursorHidden: field(coreService, 'isCursorHidden', 'coreService') === true,
    mouseEncoding: typeof encoding === 'string' ? encoding : 'DEFAULT',
    cursorShape: optionalShape((decPrivateModes as Obj)['cursorStyle']),
    cursorBlink: typeof blink === 'boolean' ? blink : undefined,
    charsets: Array.isArray(charsets) ? charsets.map(charsetTable) : [],
    glevel: num(charsetService, 'glevel', '_charsetService'),
    // Declared without initializer in xterm.js, so the property is absent until first assigned.
    charset: charsetTable((charsetService as Obj)['charset']),
  };
}
