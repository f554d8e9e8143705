import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { LogEntry } from '@pty-ws/ports';
import { transcriptArchiveContract } from '../../testkit/src/contracts';
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

  it('is readable JSONL with zcat (gzip members back to back)', async () => {
    const a = new FileTranscriptArchive(dir);
    await a.append('s1', [out(1), out(2)]);
    await a.append('s1', [out(3)]);
    const text = gunzipSync(readFileSync(path.join(dir, 's1.jsonl.gz'))).toString('utf8');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { seq: number; data: string });
    expect(lines.map((l) => l.seq)).toEqual([1, 2, 3]);
    expect(Buffer.from(lines[2]!.data, 'base64').toString()).toBe('line 3\n');
  });

  it('cuts off what a crash left between a chunk and its index line, and a torn index line', async () => {
    const a = new FileTranscriptArchive(dir);
    await a.append('s1', [out(1), out(2)]);
    appendFileSync(path.join(dir, 's1.jsonl.gz'), Buffer.from('half a chunk'));
    appendFileSync(path.join(dir, 's1.idx'), '{"first":3,"la');
    const b = new FileTranscriptArchive(dir);
    expect(await b.stats('s1')).toMatchObject({ firstSeq: 1, lastSeq: 2, chunks: 1 });
    await b.append('s1', [out(3)]);
    const c = new FileTranscriptArchive(dir);
    expect((await c.read('s1', 0)).map((e) => e.seq)).toEqual([1, 2, 3]);
    const members = gunzipSync(readFileSync(path.join(dir, 's1.jsonl.gz')))
      .toString('utf8')
      .trimEnd()
      .split('\n');
    expect(members).toHaveLength(3);
  });
});
