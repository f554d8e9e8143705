/** The look shared by live terminals and recordings. */
export const THEME = { background: '#0d1117', foreground: '#d1d7e0', cursor: '#d1d7e0' };
export const FONT_SIZE = 13;
/**
 * Monospace first (it sets the cell size), then fonts that carry CJK and emoji glyphs, so wide
 * characters fall back to a real glyph instead of a box on machines whose monospace lacks them.
 */
export const FONT_FAMILY = [
  '"DejaVu Sans Mono"',
  'Menlo',
  'Consolas',
  '"Liberation Mono"',
  '"Noto Sans Mono CJK SC"',
  '"Noto Sans CJK SC"',
  '"WenQuanYi Zen Hei Mono"',
  '"Noto Color Emoji"',
  '"Apple Color Emoji"',
  '"Segoe UI Emoji"',
  'monospace',
].join(', ');
