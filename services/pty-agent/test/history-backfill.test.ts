/**
 * Where the log of a managed session stopped in the multiplexer's history, and what a
 * re-attaching agent appends after it (history-backfill.ts), on synthetic screens and histories.
 */
import type { LoggedScreen } from '@pty-ws/ports';
import { planBackfill, type CapturedHistory } from '../src/hosts/history-backfill';
import { firstRows, visibleText } from '../src/hosts/visible-text';

const ROWS = 24;
const numbered = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `L${from + i}E`);

/** The screen a log ends on: `lines` from the top, the cursor on the row after them (or `cursorY`). */
function logged(lines: string[], cursorY = lines.length): LoggedScreen {
  return { cols: 80, rows: ROWS, lines, cursorY };
}

/** A history of `lines` whose last ROWS rows are the screen. */
function captured(lines: string[], more: Partial<CapturedHistory> = {}): CapturedHistory {
  return { lines, screenTop: Math.max(0, lines.length - ROWS), limit: 10_000, full: false, alternate: false, ...more };
}

/** What a new client draws first when it repaints `c`'s screen. */
function screenOf(c: CapturedHistory): string[] {
  return c.lines
    .slice(c.screenTop)
    .map((l) => visibleText(l).trimEnd())
    .filter((l) => l !== '')
    .slice(0, 4);
}

/** The plan when the new client's first screen is the captured one. */
function plan(l: LoggedScreen | undefined, c: CapturedHistory) {
  return planBackfill(l, c, screenOf(c));
}

/** The rows the appended bytes print, in order. */
function printed(bytes: Uint8Array | undefined): string[] {
  return visibleText(Buffer.from(bytes ?? []).toString('utf8'))
    .split(/\r\n|\r/)
    .filter((l) => l !== '');
}

describe('planBackfill', () => {
  it('appends the rows after the log’s last screen, up to the screen the new client repaints', () => {
    // The log ends on L40..L62 with the cursor below; tmux has printed up to L100 since.
    const result = plan(logged(numbered(40, 62)), captured([...numbered(1, 100), '']));
    expect(result.outcome).toBe('appended');
    // The client repaints L78..L100 and the cursor's row: L63..L77 were missed.
    expect(printed(result.bytes)).toEqual(numbered(63, 77));
    expect(result.lines).toBe(15);
  });

  it('stops where the new client’s first screen begins, though the history was captured later', () => {
    // The client drew L70.. first; by the capture, tmux had printed up to L100.
    const result = planBackfill(logged(numbered(40, 62)), captured([...numbered(1, 100), '']), numbered(70, 73));
    expect(printed(result.bytes)).toEqual(numbered(63, 69));
  });

  it('appends nothing, and says so, when the client’s first rows are no longer in the history', () => {
    const result = planBackfill(logged(numbered(40, 62)), captured([...numbered(1, 100), '']), ['L5000E']);
    expect(result.outcome).toBe('unplaced');
    expect(printed(result.bytes)).toEqual([expect.stringMatching(/could not be matched/)]);
  });

  it('prints again, whole, a row the log had only begun', () => {
    const result = plan(logged([...numbered(40, 62), 'L6'], 23), captured([...numbered(1, 100), '']));
    expect(printed(result.bytes)).toEqual(['L63E', ...numbered(64, 77)]);
    expect(result.lines).toBe(14);
  });

  it('appends nothing when the log’s last screen is still on the multiplexer’s screen', () => {
    const result = plan(logged(numbered(10, 30)), captured([...numbered(1, 30), '', '', '']));
    expect(result).toEqual({ outcome: 'nothing-missed', lines: 0 });
  });

  it('does not take a later row that only looks like the log’s last one (a new prompt)', () => {
    // The log ends on a prompt at the top; a command ran since and left a prompt further down.
    const result = plan(logged(['$ ']), captured(['$ ls', 'a', 'b', '$ ']));
    expect(result).toEqual({ outcome: 'nothing-missed', lines: 0 });
  });

  it('takes everything in the history when the log has no screen yet', () => {
    const result = plan(undefined, captured([...numbered(1, 50), '']));
    expect(printed(result.bytes)).toEqual(numbered(1, 27));
  });

  it('says where output is missing when more was printed than the history holds', () => {
    // The log's last screen fell off the top of a full history (L1000..L1100 remain).
    const result = plan(logged(numbered(40, 62)), captured(numbered(1000, 1100), { full: true }));
    expect(result.outcome).toBe('truncated');
    const rows = printed(result.bytes);
    expect(rows[0]).toMatch(/output is missing here: more than the multiplexer's history \(10000 lines\)/);
    expect(rows.slice(1)).toEqual(numbered(1000, 1076));
  });

  it('says so, and appends nothing, when the log’s last screen is not in a history that lost nothing', () => {
    const result = plan(logged(['something else']), captured(numbered(1, 100)));
    expect(result.outcome).toBe('unplaced');
    expect(result.lines).toBe(0);
    expect(printed(result.bytes)).toEqual([expect.stringMatching(/could not be matched/)]);
  });

  it('reports repeated output it cannot place exactly, taking the latest occurrence', () => {
    const ys = Array.from({ length: 200 }, () => 'y');
    const result = plan(logged(ys.slice(0, 23)), captured(ys));
    expect(result.outcome).toBe('ambiguous');
    expect(result.lines).toBe(0);
  });

  it('leaves a program on its alternate screen to the repaint (no history there)', () => {
    expect(plan(logged(['vi']), captured(numbered(1, 100), { alternate: true }))).toEqual({
      outcome: 'full-screen',
      lines: 0,
    });
  });

  it('compares text without the colours the history carries', () => {
    const colored = numbered(1, 100).map((l) => `\x1b[32m${l}\x1b[39m`);
    const result = plan(logged(numbered(40, 62)), captured([...colored, '']));
    expect(printed(result.bytes)).toEqual(numbered(63, 77));
  });
});

describe('firstRows', () => {
  it('reads a repaint row by row: colours kept inside a row, cursor moves between rows', () => {
    const repaint = '\x1b[?1049h\x1b[H\x1b[2J\x1b[1;1HL5E\x1b[K\x1b[3;1H\x1b[32mL6\x1b[39mE two\r\nL7E\x1b[4;1HL8E';
    expect(firstRows(repaint, 3)).toEqual(['L5E', 'L6E two', 'L7E']);
  });

  it('keeps a row whole where the client skips blanks with a cursor move or erases them', () => {
    expect(firstRows('\x1b[Htotal 8\x1b[K\r\ndrwx\x1b[5Xa\x1b[3Cb\x1b[K\r\n', 2)).toEqual(['total 8', 'drwxa   b']);
  });
});
