/**
 * Absolute SGR ("pen") encoding of a set of text attributes.
 *
 * The serialize addon emits SGR *differences*, and gets some wrong (turning dim off with SGR 22 also
 * turns bold off). The keyframe is assembled from independent steps (cells, saved cursors, cursor,
 * pen), so every pen here is absolute: `0` (reset), then every attribute that is on.
 */

import {
  HAS_EXTENDED,
  hasExtendedAttributes,
  underlineColor,
  underlineColorKey,
  underlineStyle,
} from './xterm-private';

/** The attribute getters shared by xterm's public IBufferCell and its internal AttributeData. */
export interface AttributeSource {
  isBold(): number;
  isDim(): number;
  isItalic(): number;
  isUnderline(): number;
  isBlink(): number;
  isInverse(): number;
  isInvisible(): number;
  isStrikethrough(): number;
  isOverline(): number;
  isFgRGB(): boolean;
  isBgRGB(): boolean;
  isFgPalette(): boolean;
  isBgPalette(): boolean;
  getFgColor(): number;
  getBgColor(): number;
}

function colorParams(kind: 'fg' | 'bg', attrs: AttributeSource): number[] {
  const isRgb = kind === 'fg' ? attrs.isFgRGB() : attrs.isBgRGB();
  const isPalette = kind === 'fg' ? attrs.isFgPalette() : attrs.isBgPalette();
  const color = kind === 'fg' ? attrs.getFgColor() : attrs.getBgColor();
  const base = kind === 'fg' ? 30 : 40;
  if (isRgb) return [base + 8, 2, (color >>> 16) & 0xff, (color >>> 8) & 0xff, color & 0xff];
  if (!isPalette) return [];
  // Same convention as the serialize addon: indexes 0-15 as 30-37/90-97 (40-47/100-107), so a
  // cell and the pen that painted it encode identically. xterm.js renders both forms the same.
  if (color >= 16) return [base + 8, 5, color];
  return [color >= 8 ? base + 60 + (color - 8) : base + color];
}

/** `CSI 0;...m` reproducing exactly the given attributes, whatever the previous pen was. */
export function absoluteSgr(attrs: AttributeSource): string {
  const params: Array<number | string> = [0];
  if (attrs.isBold()) params.push(1);
  if (attrs.isDim()) params.push(2);
  if (attrs.isItalic()) params.push(3);
  if (attrs.isUnderline()) {
    // Styled underlines (double, curly, dotted, dashed) as ITU T.416 sub-parameters: `4:3`.
    const style = underlineStyle(attrs);
    params.push(style > 1 ? `4:${style}` : 4);
    const color = underlineColor(attrs);
    if (color !== '') params.push(color);
  }
  if (attrs.isBlink()) params.push(5);
  if (attrs.isInverse()) params.push(7);
  if (attrs.isInvisible()) params.push(8);
  if (attrs.isStrikethrough()) params.push(9);
  if (attrs.isOverline()) params.push(53);
  params.push(...colorParams('fg', attrs), ...colorParams('bg', attrs));
  return `\x1b[${params.join(';')}m`;
}

/**
 * `CSI 0;<background>m`: the pen for erasing (ECH/EL/ED copy only the background colour into
 * the erased cells), so blank coloured cells are recreated exactly as an erase made them.
 */
export function backgroundSgr(attrs: AttributeSource): string {
  return `\x1b[${[0, ...colorParams('bg', attrs)].join(';')}m`;
}

/**
 * True when absoluteSgr would say more than backgroundSgr: a flag or a foreground colour is set.
 * Answered from the getters, without building either string (it is asked of every blank cell).
 */
export function hasPenBeyondBackground(attrs: AttributeSource): boolean {
  return (
    attrs.isFgRGB() ||
    attrs.isFgPalette() ||
    !!attrs.isBold() ||
    !!attrs.isDim() ||
    !!attrs.isItalic() ||
    !!attrs.isUnderline() ||
    !!attrs.isBlink() ||
    !!attrs.isInverse() ||
    !!attrs.isInvisible() ||
    !!attrs.isStrikethrough() ||
    !!attrs.isOverline()
  );
}

/** True when the attributes are the terminal default (what `CSI 0 m` / a reset leaves). */
export function isDefaultAttributes(attrs: AttributeSource): boolean {
  return absoluteSgr(attrs) === '\x1b[0m';
}

/** The packed words xterm.js's cell objects (CellData) keep every attribute in, when they have them. */
interface PackedAttributes {
  fg?: unknown;
  bg?: unknown;
}

/**
 * Equal packed words mean equal attributes, whatever the getters make of them (they read nothing
 * else unless the cell has extended attributes). One comparison instead of ~15 getter calls per
 * cell: this was the largest part of a keyframe's time.
 */
function samePacked(a: AttributeSource, b: AttributeSource, backgroundOnly: boolean): boolean {
  const pa = a as PackedAttributes;
  const pb = b as PackedAttributes;
  if (typeof pa.bg !== 'number' || pa.bg !== pb.bg || (pa.bg & HAS_EXTENDED) !== 0) return false;
  return backgroundOnly || (typeof pa.fg === 'number' && pa.fg === pb.fg);
}

/** Cheap equality of what absoluteSgr (or, with `backgroundOnly`, backgroundSgr) would encode. */
export function sameAttributes(a: AttributeSource, b: AttributeSource, backgroundOnly: boolean): boolean {
  if (samePacked(a, b, backgroundOnly)) return true;
  const sameBg =
    a.isBgRGB() === b.isBgRGB() && a.isBgPalette() === b.isBgPalette() && a.getBgColor() === b.getBgColor();
  if (!sameBg || backgroundOnly) return sameBg;
  return (
    a.isFgRGB() === b.isFgRGB() &&
    a.isFgPalette() === b.isFgPalette() &&
    a.getFgColor() === b.getFgColor() &&
    !a.isBold() === !b.isBold() &&
    !a.isDim() === !b.isDim() &&
    !a.isItalic() === !b.isItalic() &&
    !a.isUnderline() === !b.isUnderline() &&
    !a.isBlink() === !b.isBlink() &&
    !a.isInverse() === !b.isInverse() &&
    !a.isInvisible() === !b.isInvisible() &&
    !a.isStrikethrough() === !b.isStrikethrough() &&
    !a.isOverline() === !b.isOverline() &&
    sameUnderline(a, b)
  );
}

/** Same underline style and colour; only cells with extended attributes can differ there. */
function sameUnderline(a: AttributeSource, b: AttributeSource): boolean {
  if (!a.isUnderline() || (!hasExtendedAttributes(a) && !hasExtendedAttributes(b))) return true;
  return underlineStyle(a) === underlineStyle(b) && underlineColorKey(a) === underlineColorKey(b);
}
