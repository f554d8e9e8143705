import { HeadTail } from '../src/tasks/head-tail';

describe('HeadTail', () => {
  const keep = (limit: number, head: number, ...parts: string[]) => {
    const ht = new HeadTail(limit, head);
    for (const p of parts) ht.push(Buffer.from(p, 'utf8'));
    return ht.result();
  };

  it('keeps everything within the limit', () => {
    expect(keep(10, 4, 'abc', 'def')).toEqual({ text: 'abcdef', omittedBytes: 0 });
  });

  it('keeps the start and the end, and says how much lay between', () => {
    expect(keep(8, 4, '0123\n', '456789\n', 'abc\n')).toEqual({
      text: '0123\n[… 8 bytes left out …]\nabc\n',
      omittedBytes: 8,
    });
    // Head 0: the end only, as before the head was kept.
    expect(keep(4, 0, 'abcdefgh')).toEqual({ text: '[… 4 bytes left out …]\nefgh', omittedBytes: 4 });
  });

  it('never splits a UTF-8 character: one cut through is left out whole', () => {
    // 'é' is two bytes: the head ends in its middle, the tail starts in the middle of the last one.
    const { text, omittedBytes } = keep(4, 2, 'aé', 'xxxx', 'éb');
    expect(text).toBe('a\n[… 8 bytes left out …]\nb');
    expect(omittedBytes).toBe(8); // ten bytes, 'a' and 'b' kept
  });
});
