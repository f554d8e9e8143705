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

/** Within a row: colours and erasures are dropped, a cursor move forward is that many blanks. */
const IN_ROW = /\x1b\[([0-9;:]*)([mXKC])/g;
const BREAKS = new RegExp(`${ESCAPES.source}|[\\r\\n]`);

/**
 * The first `n` non-blank rows a terminal client drew, as text. A multiplexer's client repaints
 * a screen row by row from the top, writing each row's cells in order (skipping blank runs with
 * a cursor move forward), so these are its first screen's rows; any other escape sequence (a
 * cursor move) or line break ends a row.
 */
export function firstRows(raw: string, n: number): string[] {
  const flat = raw.replace(IN_ROW, (_, arg: string, op: string) => (op === 'C' ? ' '.repeat(Number(arg) || 1) : ''));
  const rows: string[] = [];
  for (const piece of flat.split(BREAKS)) {
    if (piece.trim() === '') continue;
    rows.push(piece.trimEnd());
    if (rows.length === n) break;
  }
  return rows;
}
