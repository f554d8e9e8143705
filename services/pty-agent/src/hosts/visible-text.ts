/**
 * A terminal client's output with its escape sequences (CSI, OSC, DCS, charset and
 * single-character escapes) removed: the text it printed.
 */
const ESCAPES = /\x1b(?:\[[0-9;?<=>]*[ -/]*[@-~]|[\]P_^][\s\S]*?(?:\x07|\x1b\\)|[ -/]*[0-~])/g;

export function visibleText(raw: string): string {
  return raw.replace(ESCAPES, '');
}

/**
 * Whether a terminal client's output has drawn a line of text: escapes removed, and blanks
 * ignored, since a client may move the cursor over spaces instead of printing them.
 */
export function hasDrawn(raw: string, line: string): boolean {
  const squeeze = (s: string) => visibleText(s).replace(/\s+/g, '');
  return squeeze(raw).includes(squeeze(line));
}

const SGR = /\x1b\[[0-9;:]*m/g;
const BREAKS = new RegExp(`${ESCAPES.source}|[\\r\\n]`);

/**
 * The first `n` non-blank rows a terminal client drew, as text: colours dropped, any other escape
 * sequence (a cursor move) or line break ends a row. A multiplexer's client repaints a screen row
 * by row from the top, writing each row's cells in order, so these are its first screen's rows.
 */
export function firstRows(raw: string, n: number): string[] {
  const rows: string[] = [];
  for (const piece of raw.replace(SGR, '').split(BREAKS)) {
    if (piece.trim() === '') continue;
    rows.push(piece.trimEnd());
    if (rows.length === n) break;
  }
  return rows;
}
