import { OutputScan } from '../src/agent-api/output-scan';
import { parseWaitQuery } from '../src/agent-api/wait-query';

/** A scan for the pattern of a wait query string, fed frame by frame (sequence = index + 1). */
function scanOf(query: string): { push: (...frames: string[]) => ReturnType<OutputScan['push']>; scan: OutputScan } {
  const scan = new OutputScan(parseWaitQuery(query).pattern, 1024);
  let seq = 0;
  const push = (...frames: string[]) => {
    let hit;
    for (const f of frames) hit ??= scan.push(++seq, Buffer.from(f));
    return hit;
  };
  return { push, scan };
}

describe('OutputScan', () => {
  it('finds a literal split across frames and styling, with the frames it spans', () => {
    const { push } = scanOf('pattern=Listening%20on');
    expect(push('starting\r\nListen', '\x1b[1mi', 'ng\x1b[0m on :80')).toEqual({
      text: 'Listening on',
      startSeq: 1,
      endSeq: 3,
    });
  });

  it("never takes a frame's end for a line's end ($ waits for the line)", () => {
    const { push, scan } = scanOf('pattern=' + encodeURIComponent('^a+$') + '&regex=1');
    expect(push('aaaa', 'aaab')).toBeUndefined();
    expect(scan.settle()).toBeUndefined();
    expect(push('\r\naa', 'a\r\n')).toEqual({ text: 'aaa', startSeq: 3, endSeq: 4 });
  });

  it('tries the unfinished line only when settled (a prompt)', () => {
    const { push, scan } = scanOf('pattern=' + encodeURIComponent('password: $') + '&regex=1');
    expect(push('login ok\r\n', 'password: ')).toBeUndefined();
    expect(scan.hasUnfinishedLine).toBe(true);
    expect(scan.settle()).toEqual({ text: 'password: ', startSeq: 2, endSeq: 2 });
  });

  it('maps offsets back across \\r\\n line ends and treats \\r as one', () => {
    const { push } = scanOf('pattern=' + encodeURIComponent('^50%$') + '&regex=1');
    expect(push('a\r\nb\r\n', '10%\r', '50%\r', '100%\r\n')).toEqual({ text: '50%', startSeq: 3, endSeq: 3 });
  });

  it('keeps a bounded tail of what it saw', () => {
    const { push, scan } = scanOf('pattern=never');
    push('x'.repeat(5000), 'y'.repeat(10));
    const tail = scan.tail(100);
    expect(tail.text).toBe('x'.repeat(90) + 'y'.repeat(10));
    expect(tail.totalChars).toBe(5010);
  });
});
