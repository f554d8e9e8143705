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
