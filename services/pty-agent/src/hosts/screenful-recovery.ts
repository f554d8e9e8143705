/**
 * Rows tmux scrolled past its client. tmux draws a pane's output for its clients per read of the
 * pane: when one read scrolls the screen by more than its height (a program that prints more
 * than a screen at once, or a flood the server reads in large pieces when it is busy), the client
 * is sent "scroll up a whole screen" (CSI <rows> S) and then the final screen, and the rows in
 * between never reach it; they are only in tmux's history. Without this, they would be missing
 * from the session's log with no gap in it.
 *
 * So the agent watches its client's output for that scroll. There it holds the output back,
 * takes the screen the client showed before it (drawn from the client's recent output) as the
 * anchor and the first rows the client draws after it as the end, captures the history, and puts
 * the rows in between (history-backfill.ts) before the scroll. What cannot be placed gets a notice
 * row instead: nothing goes missing without a mark.
 */
import type { TerminalSize } from '@pty-ws/protocol';
import { screenText } from '@pty-ws/terminal-state';
import { planBackfill, type CapturedHistory, type NoticeTexts } from './history-backfill';
import { firstRows, visibleText } from './visible-text';

/** The multiplexer's history, as a re-attach reads it. */
export interface HistorySource {
  history(name: string, rows: number): Promise<CapturedHistory | undefined>;
  /** The client created the session, so everything in the history was printed while it watched. */
  created?: boolean;
}

/** Client output kept to draw the screen it showed before the scroll. */
const TAIL_BYTES = 64 * 1024;
/** Rows after the scroll that locate the client's new screen in the history. */
const DRAWN_ROWS = 4;
const DRAWN_QUIET_MS = 50;
const DRAWN_MAX_MS = 1000;
const DRAWN_POLL_MS = 10;
const SAVE = '\x1b7';
const RESTORE = '\x1b8';
/** A scroll sequence may be cut by a read: its start waits this long for the rest. */
const SPLIT_WAIT_MS = 20;

const NOTICES: NoticeTexts = {
  unplaced: () =>
    '[pty-ws] output is missing here: the multiplexer scrolled past rows its client did not draw, and they could not be placed',
  truncated: (limit) =>
    `[pty-ws] output is missing here: the multiplexer scrolled past more rows than its history (${limit} lines) holds`,
};

const ESC = 0x1b;
const LEFT_BRACKET = 0x5b;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const S = 0x53;

/**
 * Where the first scroll up by at least `rows` (CSI n S) starts in `buf`, or else where a
 * sequence at its very end starts that could still become one (cut by the read).
 */
export function scanScrolls(buf: Buffer, rows: number): { at?: number; split?: number } {
  for (let i = buf.indexOf(ESC); i >= 0; i = buf.indexOf(ESC, i + 1)) {
    let j = i + 1;
    if (j === buf.length) return { split: i };
    if (buf[j] !== LEFT_BRACKET) continue;
    let n = 0;
    for (j += 1; j < buf.length && buf[j]! >= DIGIT_0 && buf[j]! <= DIGIT_9; j++) n = n * 10 + buf[j]! - DIGIT_0;
    if (j === buf.length) return { split: i };
    if (buf[j] === S && j > i + 2 && n >= rows) return { at: i };
  }
  return {};
}

export class ScreenfulRecovery {
  /** The latest output, at least TAIL_BYTES of it (whole chunks). */
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Output held while a scroll is being recovered (the scroll's own sequence first). */
  private held: Buffer[] = [];
  private recovering = false;
  /** The start of a sequence cut by a read, waiting for the rest. */
  private cut: Buffer | undefined;
  private cutTimer: NodeJS.Timeout | undefined;
  /** The client has printed text (not only escapes and blanks). */
  private drewText = false;

  constructor(
    private readonly name: string,
    private readonly source: HistorySource,
    private readonly size: () => TerminalSize,
    private readonly emit: (data: Uint8Array) => void,
    /** Told how many rows were put back, or that a notice stands for them. */
    private readonly report: (outcome: string, lines: number) => void = () => {},
  ) {}

  /** The client's output, in order. */
  push(data: Uint8Array): void {
    if (this.recovering) {
      this.held.push(Buffer.from(data));
      return;
    }
    let buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (this.cut) {
      buf = Buffer.concat([this.cut, buf]);
      this.cut = undefined;
      clearTimeout(this.cutTimer);
    }
    const { at, split } = scanScrolls(buf, this.size().rows);
    if (at !== undefined) {
      this.out(buf.subarray(0, at));
      this.recovering = true;
      this.held = [Buffer.from(buf.subarray(at))];
      void this.recover();
      return;
    }
    if (split !== undefined) {
      // The end may be the start of such a scroll: it waits a moment for the rest.
      this.out(buf.subarray(0, split));
      this.cut = Buffer.from(buf.subarray(split));
      this.cutTimer = setTimeout(() => this.flushCut(), SPLIT_WAIT_MS);
      this.cutTimer.unref();
      return;
    }
    this.out(buf);
  }

  /** Once everything pushed so far is out (the client's exit waits for it). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.cut && !this.recovering) {
        clearTimeout(this.cutTimer);
        this.flushCut();
      }
      if (!this.recovering) return;
      await new Promise((r) => setTimeout(r, DRAWN_POLL_MS));
    }
  }

  private flushCut(): void {
    const cut = this.cut;
    this.cut = undefined;
    if (cut && !this.recovering) this.out(cut);
    else if (cut) this.held.push(cut);
  }

  private out(buf: Buffer): void {
    if (buf.length === 0) return;
    if (!this.drewText) this.drewText = visibleText(buf.toString('utf8')).trim() !== '';
    this.tail.push(buf);
    this.tailBytes += buf.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= TAIL_BYTES) {
      this.tailBytes -= this.tail.shift()!.length;
    }
    this.emit(buf);
  }

  private async recover(): Promise<void> {
    try {
      const { cols, rows } = this.size();
      const before = await screenText(cols, rows, [{ kind: 'write', data: Buffer.concat(this.tail) }]);
      const drawn = await this.drawnAfter();
      const captured = await this.source.history(this.name, rows);
      if (captured) {
        // A blank screen before is no anchor, unless the session is the client's own and it has
        // printed nothing yet: then every row above its new screen is one it skipped. (Else what
        // cannot be placed gets the notice.)
        const blank = before.lines.every((l) => l.trim() === '');
        const fromStart = blank && this.source.created === true && !this.drewText;
        const { bytes, outcome, lines } = planBackfill(fromStart ? undefined : before, captured, drawn, NOTICES);
        // tmux keeps track of the cursor and the attributes it left the client with and moves
        // relative to them: they are saved and restored around the rows put back. (The rows on
        // screen are tmux's business: its scroll and repaint follow.)
        if (bytes) this.out(Buffer.concat([Buffer.from(SAVE), Buffer.from(bytes), Buffer.from(RESTORE)]));
        if (outcome !== 'nothing-missed' && outcome !== 'full-screen') this.report(outcome, lines);
      }
    } catch {
      /* the client or the multiplexer went away: its output follows as it is */
    }
    this.resume();
  }

  /** The first rows the client drew after the scroll (its output is held meanwhile). */
  private async drawnAfter(): Promise<string[]> {
    const started = Date.now();
    let seen = 0;
    let changedAt = started;
    for (;;) {
      const text = Buffer.concat(this.held).toString('utf8');
      if (text.length !== seen) [seen, changedAt] = [text.length, Date.now()];
      const rows = firstRows(text, DRAWN_ROWS);
      const now = Date.now();
      if (rows.length === DRAWN_ROWS || now - changedAt >= DRAWN_QUIET_MS || now - started >= DRAWN_MAX_MS) {
        return rows;
      }
      await new Promise((r) => setTimeout(r, DRAWN_POLL_MS));
    }
  }

  /** Lets the held output go: the scroll that started the recovery as it is, the rest checked. */
  private resume(): void {
    const held = this.held;
    this.held = [];
    this.recovering = false;
    const first = held.shift();
    if (first) {
      const end = /^\x1b\[\d+S/.exec(first.toString('latin1'))?.[0].length ?? 0;
      this.out(first.subarray(0, end));
      held.unshift(first.subarray(end));
    }
    for (const chunk of held) this.push(chunk);
  }
}
