/**
 * Escape sequences: CSI (its parameters and final byte captured, to follow cursor moves), OSC,
 * DCS, charset selection and the short ESC forms.
 */
const ESCAPES =
  /\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1bP[^\x1b]*\x1b\\|\x1b[()*+][0-9A-Za-z]|\x1b[=>78DEHMNOc]/g;

/**
 * Erase in line (`CSI K`, `CSI 1 K`, `CSI 2 K`), kept in the text as private-use characters until
 * the line is drawn: a progress line clears what a longer earlier state left.
 */
const ERASE_TO_END = '\uE000';
const ERASE_TO_CURSOR = '\uE001';
const ERASE_LINE = '\uE002';
const ERASES = [ERASE_TO_END, ERASE_TO_CURSOR, ERASE_LINE] as const;

/**
 * A line as a terminal shows it: `\r` goes back to the line's start and `\b` one column left, and
 * what follows overwrites what was there (a progress line ends as its last state); erases blank
 * their part of the line.
 */
function overwritten(line: string): string {
  if (!/[\r\b\uE000-\uE002]/.test(line)) return line;
  let cells: string[] = [];
  let col = 0;
  for (const ch of line) {
    if (ch === '\r') col = 0;
    else if (ch === '\b') col = Math.max(0, col - 1);
    else if (ch === ERASE_TO_END) cells.length = Math.min(cells.length, col);
    else if (ch === ERASE_TO_CURSOR) cells.fill(' ', 0, Math.min(cells.length, col + 1));
    else if (ch === ERASE_LINE) cells = [];
    else cells[col++] = ch;
  }
  return Array.from(cells, (c) => c ?? ' ').join('');
}

/**
 * zsh's PROMPT_SP after output without a final newline: a reverse-video % (# for root), padding
 * to the line's end, a return (a multiplexer redraws the padding with a move to the next row).
 */
const ZSH_EOL_MARK = /\x1b\[(?:[0-9;]*;)?7m[%#](?:\x1b\[[0-9;]*m|\x1b\(B)* *(?:\x1b\[\d+;1H *)?[\r\b](?: [\r\b])?/g;

/**
 * The output without zsh's end-of-line marks, and whether one was drawn after text on its line
 * (the output had no final newline; zsh draws the mark at a line's start too, where it vanishes).
 */
export function withoutEolMark(raw: string): { raw: string; unterminated: boolean } {
  let unterminated = false;
  const stripped = raw.replace(ZSH_EOL_MARK, (mark: string, at: number) => {
    const before = raw.slice(Math.max(0, at - 256), at).replace(/\x1b\[[0-9;]*m|\x1b\(B/g, '');
    if (before !== '' && !/(?:\n|\x1b\[\d+;1H)$/.test(before)) unterminated = true;
    return '';
  });
  return { raw: stripped, unterminated };
}

/** Where positioned output left off, to render a stream of it chunk by chunk. */
export interface TextState {
  /** The row the text so far ended on. */
  row?: number;
  /** The row of the last cursor move, applied when text follows. */
  movedTo?: number;
  /** Its column. */
  movedToColumn?: number;
  /** The text so far ended inside a line. */
  lineOpen?: boolean;
}

/**
 * The visible text of terminal output: escape sequences removed, line ends normalized, lines
 * redrawn with `\r` kept as last drawn. `positioned` output (a multiplexer's redraws) places its
 * text with cursor moves rather than line feeds: a move to another row starts a new line. `state`
 * carries the position from one chunk of a stream to the next.
 */
export function terminalText(raw: string, positioned = false, state: TextState = {}): string {
  let out = '';
  const put = (text: string): void => {
    if (text.length === 0) return;
    if (state.movedTo !== undefined) {
      const lineOpen = out.length > 0 ? !out.endsWith('\n') : state.lineOpen === true;
      // Where the text so far is unknown (drawn before any move), a move to a row's first column
      // after it starts a new line.
      const newRow = state.row === undefined ? state.movedToColumn === 1 : state.movedTo !== state.row;
      if (newRow && lineOpen) out += '\n';
      state.row = state.movedTo;
      state.movedTo = undefined;
    }
    out += text;
    if (state.row !== undefined) state.row += text.split('\n').length - 1;
  };
  let last = 0;
  for (const m of raw.matchAll(ESCAPES)) {
    put(raw.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2] === 'K') put(ERASES[Number(m[1] || 0)] ?? '');
    if (positioned && m[2] !== undefined && (m[2] === 'H' || m[2] === 'f')) {
      const [row, column] = (m[1] ?? '').split(';');
      state.movedTo = Number(row || 1);
      state.movedToColumn = Number(column || 1);
    }
  }
  put(raw.slice(last));
  if (out.length > 0) state.lineOpen = !out.endsWith('\n');
  return out.replace(/\r+\n/g, '\n').split('\n').map(overwritten).join('\n');
}

/** Whether terminal output draws anything visible. */
export function hasVisibleText(chunk: Buffer): boolean {
  return terminalText(chunk.toString('latin1')).trim().length > 0;
}
