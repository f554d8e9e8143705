import type { LogEntry } from '@pty-ws/ports';
import { AsciicastWriter } from '../src/transcript/asciicast';
import { parseTranscriptQuery } from '../src/transcript/query';
import { SearchableText } from '../src/transcript/text-search';

const T0 = 1_760_000_000_000;
const out = (seq: number, ts: number, data: string | Uint8Array): LogEntry => ({
  type: 'output',
  seq,
  id: `id-${seq}`,
  ts,
  stream: 'stdout',
  data: typeof data === 'string' ? new TextEncoder().encode(data) : data,
});
const resize = (seq: number, ts: number, cols: number, rows: number): LogEntry => ({
  type: 'event',
  seq,
  id: `id-${seq}`,
  ts,
  op: 'pty.session_frame',
  payload: { kind: 'Resize', cols, rows },
});

describe('asciicast v2 export', () => {
  it('writes the header, then one event per line with times relative to the first frame', () => {
    const w = new AsciicastWriter({ width: 80, height: 24, timestamp: T0 / 1000, title: 't' });
    w.add(out(1, T0 + 5000, 'hello '));
    w.add(resize(2, T0 + 5250, 100, 30));
    w.add({
      ...out(3, T0 + 6500, 'x'),
      type: 'event',
      op: 'pty.session_frame',
      payload: { kind: 'MembershipChanged' },
    });
    w.add(out(4, T0 + 7000.5, 'world\r\n'));
    expect(w.finish().split('\n')).toEqual([
      `{"version":2,"width":80,"height":24,"timestamp":${T0 / 1000},"title":"t","env":{"TERM":"xterm-256color"}}`,
      '[0,"o","hello "]',
      '[0.25,"r","100x30"]',
      '[2.0005,"o","world\\r\\n"]',
      '',
    ]);
  });

  it('keeps a UTF-8 character split across two frames whole, and escapes control bytes as JSON', () => {
    const euro = new TextEncoder().encode('€'); // e2 82 ac
    const w = new AsciicastWriter({ width: 80, height: 24, timestamp: 0 });
    w.add(out(1, T0, new Uint8Array([0x1b, 0x5b, 0x31, 0x6d, euro[0]!])));
    w.add(out(2, T0 + 10, new Uint8Array([euro[1]!, euro[2]!, 0x0a])));
    const lines = w.finish().trimEnd().split('\n');
    expect(lines.slice(1)).toEqual(['[0,"o","\\u001b[1m"]', '[0.01,"o","€\\n"]']);
  });
});

describe('asciicast v2 export in parts', () => {
  it('hands out the same bytes taken a page at a time as whole, the cut-off tail at the last time', () => {
    const frames = [out(1, T0, 'a\r\n'), resize(2, T0 + 100, 90, 20), out(3, T0 + 250, new Uint8Array([0x62, 0xe2]))];
    const whole = new AsciicastWriter({ width: 80, height: 24, timestamp: 0 });
    for (const f of frames) whole.add(f);
    const parts = new AsciicastWriter({ width: 80, height: 24, timestamp: 0 });
    const taken = [parts.take()];
    for (const f of frames) {
      parts.add(f);
      taken.push(parts.take());
    }
    taken.push(parts.take(), parts.finish());
    expect(taken.join('')).toBe(whole.finish());
    expect(taken.join('').trimEnd().split('\n').slice(-2)).toEqual(['[0.25,"o","b"]', '[0.25,"o","�"]']);
  });
});

describe('transcript search text', () => {
  it('matches across frames and styling, reporting the frames it spans', () => {
    const t = new SearchableText();
    t.push(7, new TextEncoder().encode('ab\x1b[31mcd'));
    t.push(8, new TextEncoder().encode('\x1b]0;title\x07ef gh'));
    t.push(9, new TextEncoder().encode('\x1b[0mij cdef'));
    expect(t.find('cdef', 10).map((m) => [m.startSeq, m.endSeq, m.before, m.text])).toEqual([
      [7, 8, 'ab', 'cdef'],
      [9, 9, 'abcdef ghij ', 'cdef'],
    ]);
    expect(t.find('cdef', 1)).toHaveLength(1);
    expect(t.find('title', 10)).toEqual([]); // OSC content is not screen text
  });
});

describe('transcript query', () => {
  it('applies defaults', () => {
    expect(parseTranscriptQuery('')).toEqual({ limit: 1000, format: 'json' });
    expect(parseTranscriptQuery('format=asciicast').limit).toBe(1_000_000);
  });

  it('parses every parameter', () => {
    const q = parseTranscriptQuery('from_seq=2&to_seq=9&stream=stdout,stderr&q=a%20b&limit=5');
    expect(q).toMatchObject({ fromSeq: 2, toSeq: 9, q: 'a b', limit: 5, format: 'json' });
    expect([...(q.streams ?? [])]).toEqual(['stdout', 'stderr']);
    expect(parseTranscriptQuery('pattern=x').q).toBe('x');
  });

  it.each([
    ['from_seq=1.5', "'from_seq'"],
    ['from_seq=1&from_seq=2', "'from_seq' given more than once"],
    ['q=a&pattern=b', "'q' or 'pattern'"],
    ['limit=10001', "'limit'"],
    ['stream=log,tty', "'stream'"],
    ['x=1', "unknown parameter 'x'"],
  ])('refuses %s', (raw, message) => {
    expect(() => parseTranscriptQuery(raw)).toThrow(message);
  });
});
