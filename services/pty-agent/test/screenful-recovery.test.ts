/**
 * Rows tmux scrolled past its client (screenful-recovery.ts), on a synthetic client stream: they
 * are put back from the history before the scroll, and the stream still draws tmux's screen.
 */
import { screenText } from '@pty-ws/terminal-state';
import type { CapturedHistory } from '../src/hosts/history-backfill';
import { ScreenfulRecovery, scanScrolls } from '../src/hosts/screenful-recovery';
import { visibleText } from '../src/hosts/visible-text';

const ROWS = 24;
const SIZE = { cols: 80, rows: ROWS };
const numbered = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `L${from + i}E`);

/** How tmux draws lines scrolling in at the bottom, and its full-screen scroll and repaint. */
const lines = (from: number, to: number) =>
  numbered(from, to)
    .map((l) => `${l}\x1b[K\r\n`)
    .join('');
const fullScroll = (from: number, to: number) => `\x1b[K\x1b[${ROWS}S\x1b[H${lines(from, to)}`;

function history(last: number): CapturedHistory {
  const all = numbered(1, last).concat(['']);
  return { lines: all, screenTop: all.length - ROWS, limit: 10_000, full: false, alternate: false };
}

async function run(chunks: string[], last: number): Promise<{ text: string; raw: Buffer; reports: string[] }> {
  const out: Buffer[] = [];
  const reports: string[] = [];
  const r = new ScreenfulRecovery(
    's',
    { history: () => Promise.resolve(history(last)), created: true },
    () => SIZE,
    (d) => out.push(Buffer.from(d)),
    (outcome, n) => reports.push(`${outcome} ${n}`),
  );
  for (const c of chunks) r.push(Buffer.from(c));
  await r.idle();
  const raw = Buffer.concat(out);
  return { text: visibleText(raw.toString('utf8')), raw, reports };
}

const numbersIn = (text: string) => [...text.matchAll(/L(\d+)E/g)].map((m) => Number(m[1]));

describe('ScreenfulRecovery', () => {
  it('puts the rows a full-screen scroll skipped before it, once and in order', async () => {
    const { text, raw, reports } = await run([lines(1, 30), fullScroll(58, 80)], 80);
    expect(numbersIn(text)).toEqual(numbered(1, 80).map((_, i) => i + 1));
    expect(reports).toEqual(['appended 27']);
    const screen = await screenText(80, ROWS, [{ kind: 'write', data: raw }]);
    expect(screen.lines.slice(0, ROWS - 1)).toEqual(numbered(58, 80));
  });

  it('from a blank screen of its own session, puts back every row above the new screen', async () => {
    const { text, reports } = await run([fullScroll(58, 80)], 80);
    expect(numbersIn(text)).toEqual(numbered(1, 80).map((_, i) => i + 1));
    expect(reports).toEqual(['appended 57']);
  });

  it('finds the scroll when a read cuts its sequence', async () => {
    const both = lines(1, 30) + fullScroll(58, 80);
    const at = both.indexOf(`\x1b[${ROWS}S`) + 3;
    const { text } = await run([both.slice(0, at), both.slice(at)], 80);
    expect(numbersIn(text)).toEqual(numbered(1, 80).map((_, i) => i + 1));
  });

  it('leaves smaller scrolls alone', async () => {
    const { text, reports } = await run([lines(1, 30), '\x1b[5S\x1b[5A', lines(31, 35)], 35);
    expect(numbersIn(text)).toEqual(numbered(1, 35).map((_, i) => i + 1));
    expect(reports).toEqual([]);
  });

  it('scans for CSI n S with n at least the screen height', () => {
    expect(scanScrolls(Buffer.from('ab\x1b[23S'), ROWS)).toEqual({});
    expect(scanScrolls(Buffer.from('ab\x1b[24Scd'), ROWS)).toEqual({ at: 2 });
    expect(scanScrolls(Buffer.from('ab\x1b[2'), ROWS)).toEqual({ split: 2 });
    expect(scanScrolls(Buffer.from('ab\x1b'), ROWS)).toEqual({ split: 2 });
    expect(scanScrolls(Buffer.from('\x1b[S'), ROWS)).toEqual({});
  });
});
