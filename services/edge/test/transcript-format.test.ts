import type { LogEntry } from '@pty-ws/ports';
import { AsciicastWriter, PART_BYTES } from '../src/transcript/asciicast';
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

/** A writer whose parts are copied into `parts` as the sink receives them. */
function recording(parts: Buffer[] = []): { writer: AsciicastWriter; parts: Buffer[]; text: () => string } {
  const writer = new AsciicastWriter({ width: 80, height: 24, timestamp: 0 }, async (part) => {
    parts.push(Buffer.from(part));
    return true;
  });
  return { writer, parts, text: () => Buffer.concat(parts).toString('utf8') };
}

describe('asciicast v2 export', () => {
  it('writes the header, then one event per line with times relative to the first frame', async () => {
    const parts: Buffer[] = [];
    const w = new AsciicastWriter({ width: 80, height: 24, timestamp: T0 / 1000, title: 't' }, async (part) => {
      parts.push(Buffer.from(part));
      return true;
    });
    await w.add(out(1, T0 + 5000, 'hello '));
    await w.add(resize(2, T0 + 5250, 100, 30));
    await w.add({
      ...out(3, T0 + 6500, 'x'),
      type: 'event',
      op: 'pty.session_frame',
      payload: { kind: 'MembershipChanged' },
    });
    await w.add(out(4, T0 + 7000.5, 'world\r\n'));
    await w.finish();
    expect(Buffer.concat(parts).toString('utf8').split('\n')).toEqual([
      `{"version":2,"width":80,"height":24,"timestamp":${T0 / 1000},"title":"t","env":{"TERM":"xterm-256color"}}`,
      '[0,"o","hello "]',
      '[0.25,"r","100x30"]',
      '[2.0005,"o","world\\r\\n"]',
      '',
    ]);
  });

  it('keeps a UTF-8 character split across two frames whole, and escapes control bytes as JSON', async () => {
    const euro = new TextEncoder().encode('€'); // e2 82 ac
    const { writer, text } = recording();
    await writer.add(out(1, T0, new Uint8Array([0x1b, 0x5b, 0x31, 0x6d, euro[0]!])));
    await writer.add(out(2, T0 + 10, new Uint8Array([euro[1]!, euro[2]!, 0x0a])));
    await writer.finish();
    expect(text().trimEnd().split('\n').slice(1)).toEqual(['[0,"o","\\u001b[1m"]', '[0.01,"o","€\\n"]']);
  });

  it('writes the cut-off tail at the last time, and a frame that makes no text yet makes no event', async () => {
    const { writer, text } = recording();
    await writer.add(out(1, T0, 'a\r\n'));
    await writer.add(resize(2, T0 + 100, 90, 20));
    await writer.add(out(3, T0 + 250, new Uint8Array([0x62, 0xe2])));
    await writer.add(out(4, T0 + 300, new Uint8Array([0x82])));
    await writer.finish();
    expect(text().trimEnd().split('\n').slice(1)).toEqual([
      '[0,"o","a\\r\\n"]',
      '[0.1,"r","90x20"]',
      '[0.25,"o","b"]',
      '[0.25,"o","�"]',
    ]);
  });
});

describe('asciicast v2 export in parts', () => {
  /** Frames of about 160 KiB (a `yes` flood's size), cut inside two-byte characters, with control bytes to escape. */
  function bigFrames(count: number): LogEntry[] {
    const all = Buffer.from(`${'é'.repeat(40)}${'x'.repeat(59)}\x1b\n`.repeat(count * 1200), 'utf8');
    const size = 160 * 1024 + 1;
    return Array.from({ length: count }, (_, i) =>
      out(i + 1, T0 + i, all.subarray(i * size, i === count - 1 ? all.length : (i + 1) * size)),
    );
  }

  it('hands out the recording in parts of at most PART_BYTES, all views of one buffer, whatever the frame size', async () => {
    const seen = new Set<ArrayBufferLike>();
    let largest = 0;
    const chunks: Buffer[] = [];
    const w = new AsciicastWriter({ width: 80, height: 24, timestamp: 0 }, async (part) => {
      seen.add(part.buffer);
      largest = Math.max(largest, part.byteLength);
      chunks.push(Buffer.from(part));
      return true;
    });
    const frames = bigFrames(8);
    for (const f of frames) await w.add(f);
    await w.finish();
    expect(largest).toBeLessThanOrEqual(PART_BYTES);
    expect(seen.size).toBe(1);
    // The same recording as each frame decoded and escaped whole.
    const decoder = new TextDecoder();
    const lines = frames.map((f, i) => {
      const data = f.type === 'output' ? f.data : new Uint8Array();
      return JSON.stringify([round6((f.ts - T0) / 1000), 'o', decoder.decode(data, { stream: i < frames.length - 1 })]);
    });
    expect(Buffer.concat(chunks).toString('utf8').split('\n').slice(1, -1)).toEqual(lines);
  });

  it('stops making parts once the sink says nobody reads', async () => {
    let calls = 0;
    const w = new AsciicastWriter({ width: 80, height: 24, timestamp: 0 }, async () => ++calls < 2);
    const frames = bigFrames(8);
    const answers: boolean[] = [];
    for (const f of frames) answers.push(await w.add(f));
    answers.push(await w.finish());
    expect(calls).toBe(2);
    expect(answers.at(-1)).toBe(false);
  });
});

const round6 = (t: number): number => Math.round(t * 1e6) / 1e6;

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
