/**
 * The text a terminal shows after a sequence of writes, resizes and resets: what a log's tail
 * draws (a keyframe, then the Output after it), to compare with another view of the same screen.
 */
import { createHeadlessTerminal } from './xterm';

export type ScreenFeed =
  | { kind: 'write'; data: Uint8Array }
  | { kind: 'resize'; cols: number; rows: number }
  /** A keyframe: `reset` on a cols×rows terminal, then its snapshot is written. */
  | { kind: 'reset'; cols: number; rows: number };

export interface ScreenText {
  cols: number;
  rows: number;
  /** The visible rows, trailing blanks removed. */
  lines: string[];
  cursorY: number;
}

export async function screenText(cols: number, rows: number, feed: readonly ScreenFeed[]): Promise<ScreenText> {
  const { term } = createHeadlessTerminal(cols, rows, 1);
  try {
    for (const step of feed) {
      if (step.kind === 'write') await new Promise<void>((resolve) => term.write(step.data, resolve));
      else {
        if (step.kind === 'reset') term.reset();
        if (step.cols !== term.cols || step.rows !== term.rows) term.resize(step.cols, step.rows);
      }
    }
    // An empty write's callback runs once everything before it is parsed.
    await new Promise<void>((resolve) => term.write('', resolve));
    const buf = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < term.rows; y++) lines.push(buf.getLine(buf.baseY + y)?.translateToString(true) ?? '');
    return { cols: term.cols, rows: term.rows, lines, cursorY: buf.cursorY };
  } finally {
    term.dispose();
  }
}
