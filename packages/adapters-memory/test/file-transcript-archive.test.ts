import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { LogEntry } from '@pty-ws/ports';
import { transcriptArchiveContract } from '@pty-ws/testkit/contracts';
import { FileTranscriptArchive } from '../src';

transcriptArchiveContract('local files', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ptyws-archive-'));
  return {
    archive: new FileTranscriptArchive(dir),
    reopen: async () => new FileTranscriptArchive(dir),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('FileTranscriptArchive on disk', () => {
  const out = (seq: number): LogEntry => ({
    type: 'output',
    seq,
    id: `id-${seq}`,
    ts: seq,
    stream: 'stdout',
    data: new TextEncoder().encode(`line ${seq}\n`),
  });
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ptyws-archive-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A chunk as format 1 wrote it: gzip of JSON lines, Output bytes base64. */
  const v1Chunk = (seqs: number[]): Buffer =>
    gzipSync(
      seqs
        .map((seq) =>
          JSON.stringify({
            seq,
            id: `id-${seq}`,
            ts: seq,
            type: 'output',
            stream: 'stdout',
            data: Buffer.from(`line ${seq}\n`).toString('base64'),
          }),
        )
        .join('\n') + '\n',
    );

  it('reads and continues a session archived in format 1 (gzip JSONL in <session>.jsonl.gz)', async () => {
    const first = v1Chunk([1, 2]);
    const second = v1Chunk([3]);
    writeFileSync(path.join(dir, 's1.jsonl.gz'), Buffer.concat([first, second]));
    const index = [
      { first: 1, last: 2, first_ts: 1, last_ts: 2, frames: 2, offset: 0, length: first.length },
      { first: 3, last: 3, first_ts: 3, last_ts: 3, frames: 1, offset: first.length, length: second.length },
    ];
    writeFileSync(path.join(dir, 's1.idx'), index.map((l) => JSON.stringify(l) + '\n').join(''));
    const a = new FileTranscriptArchive(dir);
    await a.append('s1', [out(4)]);
    const b = new FileTranscriptArchive(dir);
    const read = await b.read('s1', 0);
    expect(read.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(read.map((e) => (e.type === 'output' ? Buffer.from(e.data).toString() : ''))).toEqual(
      [1, 2, 3, 4].map((n) => `line ${n}\n`),
    );
    expect(readdirSync(dir).sort()).toEqual(['s1.idx', 's1.jsonl.gz']);
  });

  it('writes new sessions to <session>.chunks in format 2 (not gzip)', async () => {
    const a = new FileTranscriptArchive(dir);
    await a.append('s1', [out(1)]);
    expect(readdirSync(dir).sort()).toEqual(['s1.chunks', 's1.idx']);
    expect(readFileSync(path.join(dir, 's1.chunks')).subarray(0, 4)).toEqual(Buffer.from('PWT\x02', 'latin1'));
  });

  it('cuts off what a crash left between a chunk and its index line, and a torn index line', async () => {
    const a = new FileTranscriptArchive(dir);
    await a.append('s1', [out(1), out(2)]);
    appendFileSync(path.join(dir, 's1.chunks'), Buffer.from('half a chunk'));
    appendFileSync(path.join(dir, 's1.idx'), '{"first":3,"la');
    const b = new FileTranscriptArchive(dir);
    expect(await b.stats('s1')).toMatchObject({ firstSeq: 1, lastSeq: 2, chunks: 1 });
    await b.append('s1', [out(3)]);
    const c = new FileTranscriptArchive(dir);
    expect((await c.read('s1', 0)).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(await c.stats('s1')).toMatchObject({ chunks: 2, bytes: statSync(path.join(dir, 's1.chunks')).size });
  });
});
