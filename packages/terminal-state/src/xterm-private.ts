/**
 * The one file that reaches into xterm.js's private API (`term._core` and the methods of its
 * attribute objects). The rest of the package uses the public API and these typed accessors.
 *
 * What is read, and why the public API does not suffice:
 * - keyframe state (`readCoreState`): the SGR pen, the scroll margins, the DECSC saved cursors of
 *   both buffers, cursor visibility, the mouse report encoding, the DECSCUSR cursor shape, the
 *   character sets; and the underline style and colour of cells and pens (SGR 4:x, 58). The
 *   serialize addon itself reads `_core._inputHandler._curAttrData` the same way (xterm.js issue
 *   #3677). Every field is checked when read: a moved one throws a descriptive error instead of
 *   producing subtly wrong keyframes.
 * - the skip gate's precondition (`skipProbe`): parser state, a pending UTF-8 sequence, the
 *   cursor against the scroll margins. Missing members read as "cannot skip": output stays exact.
 * - the parse step (`inputHandlerHooks`): wrapped to contain exceptions (parserGuard.ts), and the
 *   erase handler called directly (eraseAboveFix.ts).
 * - the write buffer's user-input flag (`writeBufferFlag`, parseAtOnce.ts).
 *
 * `PRIVATE_MEMBERS` lists every member used here; test/xterm-private.test.ts checks each against
 * the installed xterm.js and names what is missing and the version, so an upgrade that moves one
 * fails that test loudly rather than degrading a fallback quietly.
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

// ---- members checked against the installed xterm.js ---------------------------------------------

type Kind = 'function' | 'number' | 'boolean' | 'string' | 'object' | 'bytes';

/** Every private member this file reads or calls, with what it must be (a fresh terminal). */
export const PRIVATE_MEMBERS: ReadonlyArray<readonly [path: string, kind: Kind]> = [
  ['_core._inputHandler.parse', 'function'],
  ['_core._inputHandler.eraseInDisplay', 'function'],
  ['_core._inputHandler._parser.reset', 'function'],
  ['_core._inputHandler._parser.currentState', 'number'],
  ['_core._inputHandler._parser._parseStack.state', 'number'],
  ['_core._inputHandler._utf8Decoder.interim', 'bytes'],
  ['_core._inputHandler._curAttrData.extended.underlineColor', 'number'],
  ...UNDERLINE_METHODS.map((m) => [`_core._inputHandler._curAttrData.${m}`, 'function'] as const),
  ['_core._writeBuffer._didUserInput', 'boolean'],
  ['_core.buffer.y', 'number'],
  ['_core.buffer.scrollTop', 'number'],
  ['_core.buffer.scrollBottom', 'number'],
  ...(['normal', 'alt'] as const).flatMap((b) =>
    (['x', 'y', 'ybase', 'scrollTop', 'scrollBottom', 'savedX', 'savedY'] as const).map(
      (f) => [`_core.buffers.${b}.${f}`, 'number'] as const,
    ),
  ),
  ['_core.buffers.normal.savedCurAttrData.isBold', 'function'],
  ['_core.buffers.alt.savedCurAttrData.isBold', 'function'],
  ['_core.coreService.decPrivateModes', 'object'],
  ['_core.coreService.isCursorHidden', 'boolean'],
  ['_core.coreMouseService.activeEncoding', 'string'],
  ['_core._charsetService._charsets', 'object'],
  ['_core._charsetService.glevel', 'number'],
];

function at(root: unknown, path: string): unknown {
  let v: unknown = root;
  for (const key of path.split('.')) {
    if ((typeof v !== 'object' && typeof v !== 'function') || v === null) return undefined;
    v = (v as Obj)[key];
  }
  return v;
}

function isKind(v: unknown, kind: Kind): boolean {
  if (kind === 'bytes') return v instanceof Uint8Array;
  if (kind === 'object') return typeof v === 'object' && v !== null;
  return typeof v === kind;
}

/** The members of `PRIVATE_MEMBERS` that `term` lacks (or has as something else), as `path (kind)`. */
export function missingPrivateMembers(term: Terminal): string[] {
  return PRIVATE_MEMBERS.filter(([path, kind]) => !isKind(at(term, path), kind)).map(
    ([path, kind]) => `${path} (${kind})`,
  );
}

// ---- accessors for the parse step, the skip gate and the write buffer ---------------------------

/** What the skip gate asks of the parser and the active buffer; undefined where a member is missing. */
export interface SkipProbe {
  parserState: unknown;
  parseStackState: unknown;
  utf8Interim: unknown;
  cursorY: unknown;
  scrollTop: unknown;
  scrollBottom: unknown;
}

export function skipProbe(term: Terminal): SkipProbe {
  return {
    parserState: at(term, '_core._inputHandler._parser.currentState'),
    parseStackState: at(term, '_core._inputHandler._parser._parseStack.state'),
    utf8Interim: at(term, '_core._inputHandler._utf8Decoder.interim'),
    cursorY: at(term, '_core.buffer.y'),
    scrollTop: at(term, '_core.buffer.scrollTop'),
    scrollBottom: at(term, '_core.buffer.scrollBottom'),
  };
}

export type CoreParse = (data: string | Uint8Array, promiseResult?: boolean) => unknown;
export type EraseInDisplay = (params: { params: number[]; length: number }, respectProtect?: boolean) => boolean;

/** The core's input handler, where output is parsed: its parse step, its ED handler, its parser's reset. */
export interface InputHandlerHooks {
  /** Replaces the parse step (xterm calls it for every write chunk). */
  wrapParse(wrap: (parse: CoreParse) => CoreParse): void;
  resetParser(): void;
  /** xterm's own ED / DECSED handler; undefined when missing. */
  eraseInDisplay: ((params: number[], respectProtect: boolean) => boolean) | undefined;
}

interface InputHandlerPrivate {
  parse?: unknown;
  eraseInDisplay?: unknown;
  _parser?: { reset?: unknown };
}

/** Throws (naming the member) when the parse step is missing: containing parse errors needs it. */
export function inputHandlerHooks(term: Terminal): InputHandlerHooks {
  const handler = at(term, '_core._inputHandler') as InputHandlerPrivate | undefined;
  const parse = handler?.parse;
  if (handler === undefined || typeof parse !== 'function') {
    throw new Error(
      '@pty-ws/terminal-state: xterm.js internal "_core._inputHandler.parse" not found (xterm upgraded? see xterm-private.ts)',
    );
  }
  const erase = handler.eraseInDisplay;
  return {
    wrapParse: (wrap) => {
      handler.parse = wrap((parse as CoreParse).bind(handler));
    },
    resetParser: () => {
      const reset = handler._parser?.reset;
      if (typeof reset === 'function') reset.call(handler._parser);
    },
    eraseInDisplay:
      typeof erase === 'function'
        ? (params, respectProtect) =>
            (erase as EraseInDisplay).call(handler, { params, length: params.length }, respectProtect)
        : undefined,
  };
}

/** xterm's WriteBuffer `_didUserInput` flag, or undefined when this xterm.js has none. */
export function writeBufferFlag(term: Terminal): { set(value: boolean): void } | undefined {
  const buffer = at(term, '_core._writeBuffer') as { _didUserInput?: unknown } | undefined;
  if (!buffer || typeof buffer._didUserInput !== 'boolean') return undefined;
  return {
    set: (value) => {
      buffer._didUserInput = value;
    },
  };
}

/** The raw buffers' saved-cursor rows (absolute) and scrollback offsets; for tests of the clamp. */
export function rawSavedRows(term: Terminal): { normal: RawSavedRow; alt: RawSavedRow } {
  const buffers = field(field(term, '_core', 'Terminal'), 'buffers', '_core');
  const row = (name: 'normal' | 'alt'): RawSavedRow => {
    const b = field(buffers, name, 'buffers');
    return { savedY: num(b, 'savedY', `buffers.${name}`), ybase: num(b, 'ybase', `buffers.${name}`) };
  };
  return { normal: row('normal'), alt: row('alt') };
}

export interface RawSavedRow {
  savedY: number;
  ybase: number;
}
