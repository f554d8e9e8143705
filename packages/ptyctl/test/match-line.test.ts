/** matchLine: a transcript match printed as the line it is on, like grep. */
import { matchLine } from '../src/match-line';

const match = (before: string, text: string, after: string, start = 3, end = 3) => ({
  start_seq: start,
  end_seq: end,
  before,
  text,
  after,
});

describe('matchLine', () => {
  it('prints the line of the match, not its neighbours or ⏎ marks', () => {
    expect(matchLine(match('row-4\r\nro', 'w-5', '\r\nrow-6'), false)).toBe('3: row-5\n');
    expect(matchLine(match('10%\r20%\rdone ', 'ok', ''), false)).toBe('3: done ok\n');
  });

  it('highlights the match when asked, and makes other control characters visible', () => {
    expect(matchLine(match('a\tb ', 'hit', ' \x07', 4, 6), true)).toBe('4-6: a b \x1b[1;31mhit\x1b[m \\x07\n');
  });

  it('prints each line of a match that spans lines', () => {
    expect(matchLine(match('x ', 'one\r\ntwo', ' y'), true)).toBe('3: x \x1b[1;31mone\x1b[m\n\x1b[1;31mtwo\x1b[m y\n');
  });
});
