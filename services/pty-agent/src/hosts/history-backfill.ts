/**
 * What a re-attaching agent appends to a managed session's log before its client's output: the
 * lines the multiplexer printed while no agent was attached, taken from the multiplexer's history.
 *
 * The anchor is the log's own last screen. The log holds what the previous agent's client drew,
 * and that client drew the multiplexer's screen, so the log's last screen is, row for row, a block
 * of the multiplexer's history + screen (the cursor's row possibly cut short: it may have grown
 * since). Where that block ends is where the log stopped; what follows, up to the first screen
 * the new client drew, is what it missed. A whole screen as the anchor is unique for any output that
 * is not periodic; a block that occurs more than once (repeated lines) is reported as ambiguous.
 */
import type { HistoryBackfill, LoggedScreen } from '@pty-ws/ports';
import { visibleText } from './visible-text';

/** The multiplexer's history and screen, captured once the new client has drawn its first rows. */
export interface CapturedHistory {
  /** Every row, oldest history row first, the screen's rows last (with SGR escapes, if any). */
  lines: string[];
  /** Index of the screen's first row in `lines`. */
  screenTop: number;
  /** Rows the history holds at most. */
  limit: number;
  /** The history had reached its limit (rows were dropped from its top). */
  full: boolean;
  /** The program was on its alternate screen (no history there). */
  alternate: boolean;
}

export interface BackfillPlan extends HistoryBackfill {
  /** Terminal bytes to put in the log before the new client's output (none: nothing to add). */
  bytes?: Uint8Array;
}

const RESET = '\x1b[r\x1b[0m';
const NEW_ROW = '\r\n\x1b[2K';
const NOTICE_ON = '\x1b[7m';
const SGR_OFF = '\x1b[0m';

/**
 * `logged` undefined: the log has no Output yet, so everything in the history is missing from it.
 * `drawn`: the first non-blank rows the new client drew (visible-text.ts firstRows): its first
 * screen begins there, and everything from there on is in its output.
 */
export function planBackfill(
  logged: LoggedScreen | undefined,
  captured: CapturedHistory,
  drawn: readonly string[],
  texts: NoticeTexts = REATTACH_NOTICES,
): BackfillPlan {
  const unplacedText = texts.unplaced;
  const truncatedText = texts.truncated;
  if (captured.alternate) return { outcome: 'full-screen', lines: 0 };
  const plain = captured.lines.map((l) => visibleText(l).trimEnd());
  if (!logged) {
    const top = clientTop(plain, 0, captured.screenTop, drawn);
    const screenRows = captured.lines.length - captured.screenTop;
    return top === undefined
      ? notice(screenRows, 'unplaced', unplacedText(), [])
      : fromTop(captured.lines.slice(0, top));
  }
  const rows = logged.lines.slice(0, logged.cursorY + 1).map((l) => l.trimEnd());
  let last = rows.length - 1;
  while (last >= 0 && rows[last] === '') last -= 1;
  if (last < 0 && captured.screenTop === 0) return { outcome: 'nothing-missed', lines: 0 };
  // Output only moves rows up: the log's top row is at or above the current screen's top.
  const matches = last < 0 ? [] : blockEnds(plain, rows.slice(0, last + 1), captured.screenTop + last);
  const end = matches[0];
  if (end === undefined) {
    const top = captured.full ? clientTop(plain, 0, captured.screenTop, drawn) : undefined;
    if (top === undefined) return notice(logged.rows, 'unplaced', unplacedText(), []);
    return notice(logged.rows, 'truncated', truncatedText(captured.limit), captured.lines.slice(0, top));
  }
  // The cursor's row as the log has it may be the start of what the multiplexer holds now.
  const partial = plain[end] !== rows[last];
  const from = partial ? end : end + 1;
  const outcome = matches.length > 1 ? 'ambiguous' : 'appended';
  const top = clientTop(plain, from, captured.screenTop, drawn);
  if (top === undefined) return notice(logged.rows, 'unplaced', unplacedText(), []);
  if (from >= top) return { outcome: outcome === 'ambiguous' ? outcome : 'nothing-missed', lines: 0 };
  const missed = captured.lines.slice(from, top);
  let text = `${RESET}\x1b[${last + 1};1H`;
  missed.forEach((line, i) => {
    text += (i === 0 && partial ? '\r\x1b[2K' : NEW_ROW) + line + SGR_OFF;
  });
  return {
    outcome,
    lines: missed.length - (partial ? 1 : 0),
    bytes: Buffer.from(text, 'utf8'),
  };
}

/**
 * Where the new client's first screen begins: the first row from a screen above `from` on where
 * its first drawn rows follow one another (blank rows between them skipped, blank rows just above
 * belonging to it). Nothing drawn (a blank screen): the captured screen's top. Undefined when the
 * drawn rows are not in the capture (more scrolled by before it than the history holds).
 */
function clientTop(plain: readonly string[], from: number, screenTop: number, drawn: readonly string[]) {
  if (drawn.length === 0) return Math.max(from, screenTop);
  const screenRows = plain.length - screenTop;
  for (let q = Math.max(0, from - screenRows); q < plain.length; q++) {
    if (plain[q] !== drawn[0] || !followedBy(plain, q, drawn)) continue;
    while (q > from && plain[q - 1] === '') q -= 1;
    return q;
  }
  return undefined;
}

function followedBy(plain: readonly string[], at: number, drawn: readonly string[]): boolean {
  let q = at;
  for (const row of drawn) {
    while (q < plain.length && plain[q] === '') q += 1;
    if (plain[q] !== row) return false;
    q += 1;
  }
  return true;
}

/**
 * Indices in `hay` where `block` ends, at most `maxEnd`, latest first (at most two: enough to
 * tell it is not unique), the block's last row matching as a prefix.
 */
function blockEnds(hay: readonly string[], block: readonly string[], maxEnd: number): number[] {
  const found: number[] = [];
  const last = block.length - 1;
  for (let end = Math.min(hay.length - 1, maxEnd); end >= last && found.length < 2; end--) {
    if (!(hay[end] ?? '').startsWith(block[last] ?? '')) continue;
    let i = 1;
    while (i <= last && hay[end - i] === block[last - i]) i += 1;
    if (i > last) found.push(end);
  }
  return found;
}

function fromTop(lines: readonly string[]): BackfillPlan {
  if (lines.length === 0) return { outcome: 'nothing-missed', lines: 0 };
  const text = `${RESET}\x1b[1;1H\x1b[2K` + lines.map((l) => l + SGR_OFF).join(NEW_ROW);
  return { outcome: 'appended', lines: lines.length, bytes: Buffer.from(text, 'utf8') };
}

/** A visible notice below the log's last screen (`rows` high), then `lines`. */
function notice(
  rows: number,
  outcome: 'unplaced' | 'truncated',
  message: string,
  lines: readonly string[],
): BackfillPlan {
  let text = `${RESET}\x1b[${rows};1H${NEW_ROW}${NOTICE_ON}${message}${SGR_OFF}`;
  for (const line of lines) text += NEW_ROW + line + SGR_OFF;
  return { outcome, lines: lines.length, bytes: Buffer.from(text, 'utf8') };
}

/** The notice rows' text, for what could not be recovered. */
export interface NoticeTexts {
  unplaced(): string;
  truncated(limit: number): string;
}

const REATTACH_NOTICES: NoticeTexts = {
  unplaced: () =>
    "[pty-ws] output printed while no agent was attached could not be matched to this log's last screen; it may be missing here",
  truncated: (limit) =>
    `[pty-ws] output is missing here: more than the multiplexer's history (${limit} lines) was printed while no agent was attached`,
};
