/**
 * Whether a terminal client's output has drawn a line of text: escape sequences (CSI, OSC, DCS,
 * charset and single-character escapes) removed, and blanks ignored, since a client may move the
 * cursor over spaces instead of printing them.
 */
const ESCAPES = /\x1b(?:\[[0-9;?<=>]*[ -/]*[@-~]|[\]P_^][\s\S]*?(?:\x07|\x1b\\)|[ -/]*[0-~])/g;

export function hasDrawn(raw: string, line: string): boolean {
  const squeeze = (s: string) => s.replace(ESCAPES, '').replace(/\s+/g, '');
  return squeeze(raw).includes(squeeze(line));
}
