import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { decodeChunk, encodeChunk, type LogEntry } from '../src';

const output = (seq: number, data: Uint8Array, stream: 'stdout' | 'stderr' | 'log' = 'stdout'): LogEntry => ({
  type: 'output',
  seq,
  id: `0190c0de-0000-7000-8000-${String(seq).padStart(12, '0')}`,
  ts: 1_733_170_000_000 + seq,
  stream,
  data,
});

describe('transcript chunks', () => {
  it('round-trip every kind of entry byte for byte (format 2)', async () => {
    const every = new Uint8Array(256).map((_, i) => i);
    const entries: LogEntry[] = [
      output(1, every),
      output(2, new Uint8Array(0), 'stderr'),
      {
        type: 'event',
        seq: 3,
        id: 'e-3',
        ts: 3.5,
        op: 'pty.task_status_update',
        payload: { state: 'working', text: 'ünïcødé \u001b[0m', n: [1, null] },
        taskId: 't-1',
        serviceParameters: { 'x-trace': 'abc' },
      },
      { type: 'event', seq: 4, id: 'e-4', ts: 4, op: 'pty.closed', payload: {} },
      output(2 ** 40, new TextEncoder().encode('line\r\n'), 'log'),
    ];
    const chunk = await encodeChunk(entries);
    expect(chunk).toMatchObject({ firstSeq: 1, lastSeq: 2 ** 40, firstTs: entries[0]!.ts, frames: 5 });
    expect(chunk.data.subarray(0, 4)).toEqual(Buffer.from('PWT\x02', 'latin1'));
    expect(await decodeChunk(chunk.data)).toEqual(entries);
  });

  it('pack a base64 flood tighter than its text (raw bytes, not base64 in JSON)', async () => {
    const text = Buffer.from(Buffer.alloc(300_000, 'ab').toString('base64'));
    const entries = Array.from({ length: 64 }, (_, i) => output(i + 1, text.subarray(i * 4096, (i + 1) * 4096)));
    const chunk = await encodeChunk(entries);
    expect(chunk.data.length).toBeLessThan(64 * 4096);
    expect((await decodeChunk(chunk.data)).map((e) => (e.type === 'output' ? e.data.byteLength : -1))).toEqual(
      entries.map(() => 4096),
    );
  });

  it('store a chunk brotli would shrink by under 30 % (random bytes, base64 of them), and read it back', async () => {
    const text = randomBytes(300_000);
    const entries = Array.from({ length: 64 }, (_, i) => output(i + 1, text.subarray(i * 4096, (i + 1) * 4096)));
    const chunk = await encodeChunk(entries);
    expect(chunk.data.subarray(0, 4)).toEqual(Buffer.from('PWT\x03', 'latin1'));
    expect(await decodeChunk(chunk.data)).toEqual(entries);
    // Base64 of random bytes packs to ~76 %: stored as well (brotli would cost 2-5 ms per MB for it).
    const b64 = Buffer.from(randomBytes(300_000).toString('base64'));
    const encoded = Array.from({ length: 64 }, (_, i) => output(i + 1, b64.subarray(i * 4096, (i + 1) * 4096)));
    const storedB64 = await encodeChunk(encoded);
    expect(storedB64.data.subarray(0, 4)).toEqual(Buffer.from('PWT\x03', 'latin1'));
    expect(await decodeChunk(storedB64.data)).toEqual(encoded);
    // Text that packs well in the same run is still compressed.
    const lines = Buffer.from('make[2]: Entering directory /src/build\r\n'.repeat(8000));
    const compressible = Array.from({ length: 64 }, (_, i) => output(i + 1, lines.subarray(i * 4096, (i + 1) * 4096)));
    const packed = await encodeChunk(compressible);
    expect(packed.data.subarray(0, 4)).toEqual(Buffer.from('PWT\x02', 'latin1'));
    expect(packed.data.length).toBeLessThan(64 * 4096 * 0.2);
    expect(await decodeChunk(packed.data)).toEqual(compressible);
  });

  it('still read format 1 (gzip of JSON lines, Output as base64)', async () => {
    const lines = [
      { seq: 7, id: 'o-7', ts: 70, type: 'output', stream: 'stdout', data: Buffer.from('hi\n').toString('base64') },
      { seq: 8, id: 'e-8', ts: 80, type: 'event', op: 'pty.resize', payload: { cols: 80 }, task_id: 't' },
    ];
    const v1 = gzipSync(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(await decodeChunk(v1)).toEqual([
      { type: 'output', seq: 7, id: 'o-7', ts: 70, stream: 'stdout', data: new Uint8Array(Buffer.from('hi\n')) },
      { type: 'event', seq: 8, id: 'e-8', ts: 80, op: 'pty.resize', payload: { cols: 80 }, taskId: 't' },
    ]);
  });

  it('refuse an unknown format and a truncated body', async () => {
    await expect(decodeChunk(Buffer.from('PWT\x09rest', 'latin1'))).rejects.toThrow(/unknown transcript chunk format/);
    const { data } = await encodeChunk([output(1, new Uint8Array(10))]);
    await expect(decodeChunk(data.subarray(0, data.length - 3))).rejects.toThrow();
  });
});
