import type { TranscriptMatch } from './api';

/** grep's default match colour (bold red); `[m` ends it. */
const HIGHLIGHT_ON = '\x1b[1;31m';
const HIGHLIGHT_OFF = '\x1b[m';
const LINE_BREAK = /\r\n|\r|\n/;

/** Control characters other than line breaks made visible, so no raw escape reaches the terminal. */
function visible(text: string): string {
  return text.replace(/\t/g, ' ').replace(/\p{Cc}/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * A match as grep shows one: `<seq>[-<seq>]: ` and the line it is on (the context up to the line
 * breaks on either side), the match highlighted when asked. A match that itself spans lines
 * prints them all, each on its own line.
 */
export function matchLine(m: TranscriptMatch, highlight: boolean): string {
  const where = m.start_seq === m.end_seq ? `${m.start_seq}` : `${m.start_seq}-${m.end_seq}`;
  const before = visible(m.before.split(LINE_BREAK).at(-1) ?? '');
  const after = visible(m.after.split(LINE_BREAK)[0] ?? '');
  const text = m.text
    .split(LINE_BREAK)
    .map((part) => (highlight && part !== '' ? `${HIGHLIGHT_ON}${visible(part)}${HIGHLIGHT_OFF}` : visible(part)))
    .join('\n');
  return `${where}: ${before}${text}${after}\n`;
}
