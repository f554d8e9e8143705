import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { LogEntry, RetentionPolicy, TranscriptArchive } from '@pty-ws/ports';
import { FileTranscriptArchive, MemoryFrameLog } from '../src';

/**
 * Single-node's log keeps a hot window in memory and reads older archived entries back from the
 * transcript archive: with the 24 h replay window, keeping them all in memory meant holding a
 * day of a session's output (a few 50 MB floods were hundreds of MB of RSS).
 */
const T0 = 1_700_000_000_000;
const out = (seq: number, bytes = 1000): LogEntry => ({
  type: 'output',
  seq,
  id: `id-${seq}`,
  ts: T0 + seq,
  stream: 'stdout',
  data: new Uint8Array(bytes).fill(seq & 0xff),
});
const DAY: RetentionPolicy = { minFrames: 1000, minAgeMs: 86_400_000 };
const seqs = (entries: LogEntry[]): number[] => entries.map((e) => e.seq);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The archive's read, over what the test archived; counts reads. */
class ListArchive implements Pick<TranscriptArchive, 'read'> {
  readonly entries: LogEntry[] = [];
  reads = 0;
  async read(_: string, afterSeq: number, opts: { toSeq?: number; limit?: number } = {}): Promise<LogEntry[]> {
    this.reads++;
    const to = opts.toSeq ?? Infinity;
    const found = this.entries.filter((e) => e.seq > afterSeq && e.seq <= to);
    return opts.limit === undefined ? found : found.slice(0, opts.limit);
  }
}

async function filled(log: MemoryFrameLog, archive: ListArchive | undefined, n: number, bytes = 1000): Promise<void> {
  for (let seq = 1; seq <= n; seq++) {
    const e = out(seq, bytes);
    await log.append('s', e);
    archive?.entries.push(e);
  }
}

/** Entries in memory: a read of the hot part must not touch the archive. */
async function inMemory(log: MemoryFrameLog, archive: ListArchive): Promise<number[]> {
  const { firstSeq, lastSeq } = await log.bounds('s');
  const before = archive.reads;
  const found: number[] = [];
  for (let seq = lastSeq; seq >= firstSeq; seq--) {
    const [e] = await log.read('s', seq - 1, { toSeq: seq });
    if (archive.reads !== before) break;
    found.unshift(e!.seq);
  }
  return found;
}

/** 100 entries of 1000 bytes, archived, a 10-frame hot window, trimmed with the archive at `archivedThrough`. */
async function hundredAppended(archivedThrough: number): Promise<{ archive: ListArchive; log: MemoryFrameLog }> {
  const archive = new ListArchive();
  const log = new MemoryFrameLog({ spill: { archive, hotFrames: 10 } });
  await filled(log, archive, 100);
  await log.trim('s', { ...DAY, archivedThrough }, T0 + 200);
  return { archive, log };
}

describe('MemoryFrameLog with spill', () => {
  it('keeps only the newest archived entries in memory, and reads the rest from the archive', async () => {
    const { archive, log } = await hundredAppended(100);
    expect(await inMemory(log, archive)).toEqual(range(91, 100));
    expect(await log.bounds('s')).toEqual({ firstSeq: 1, lastSeq: 100 });
    const all = await log.read('s', 0);
    expect(seqs(all)).toEqual(range(1, 100));
    expect(all[0]).toBe(archive.entries[0]);
    expect(seqs(await log.read('s', 84, { toSeq: 95 }))).toEqual(range(85, 95));
    expect(seqs(await log.read('s', 4, { limit: 3 }))).toEqual([5, 6, 7]);
  });

  it('keeps nothing of an ended session in memory once archived: replay reads the archive', async () => {
    const { archive, log } = await hundredAppended(100);
    await log.trim('s', { ...DAY, archivedThrough: 100, ended: true }, T0 + 300);
    expect(await inMemory(log, archive)).toEqual([]);
    expect(await log.bounds('s')).toEqual({ firstSeq: 1, lastSeq: 100 });
    expect(seqs(await log.read('s', 89))).toEqual(range(90, 100));
    // Only what the archive holds may go, ended or not.
    const partial = await hundredAppended(95);
    await partial.log.trim('s', { ...DAY, archivedThrough: 95, ended: true }, T0 + 300);
    expect(await inMemory(partial.log, partial.archive)).toEqual(range(96, 100));
  });

  it('never lets an entry the archive does not hold leave memory', async () => {
    const { archive, log } = await hundredAppended(50);
    expect(await inMemory(log, archive)).toEqual(range(51, 100));
    await log.trim('s', DAY, T0 + 200); // no archive position: nothing leaves
    expect(await inMemory(log, archive)).toEqual(range(51, 100));
  });

  it('bounds memory by bytes too', async () => {
    const archive = new ListArchive();
    const log = new MemoryFrameLog({ spill: { archive, hotFrames: 1000, hotBytes: 25_000 } });
    await filled(log, archive, 100, 1000);
    await log.trim('s', { ...DAY, archivedThrough: 100 }, T0 + 200);
    expect(await inMemory(log, archive)).toEqual(range(76, 100));
  });

  it('still applies retention: spilled entries the policy drops are gone', async () => {
    const { log } = await hundredAppended(100);
    // The last 5 frames, nothing by age: the spilled run 1..90 and 91..95 in memory go.
    const bounds = await log.trim('s', { minFrames: 5, minAgeMs: 0, archivedThrough: 100 }, T0 + 200);
    expect(bounds).toEqual({ firstSeq: 96, lastSeq: 100 });
    expect(seqs(await log.read('s', 0))).toEqual(range(96, 100));
  });

  it('keeps a spilled run while any of it is retained', async () => {
    const { log } = await hundredAppended(100);
    // The last 15 frames reach into the run 1..90: all of it stays readable (at least 15 kept).
    expect(await log.trim('s', { minFrames: 15, minAgeMs: 0, archivedThrough: 100 }, T0 + 200)).toEqual({
      firstSeq: 1,
      lastSeq: 100,
    });
  });

  it('lets go of what the archive dropped for its byte quota (droppedThrough), inside a spilled run too', async () => {
    const { archive, log } = await hundredAppended(100);
    archive.entries.splice(0, 30); // the archive's quota dropped 1..30
    const bounds = await log.trim('s', { ...DAY, archivedThrough: 100, droppedThrough: 30 }, T0 + 200);
    expect(bounds).toEqual({ firstSeq: 31, lastSeq: 100 });
    expect(seqs(await log.read('s', 0))).toEqual(range(31, 100));
  });

  it('returns no gap when the archive lacks what left memory', async () => {
    const { archive, log } = await hundredAppended(100);
    archive.entries.splice(40, 10); // 41..50 lost
    expect(seqs(await log.read('s', 0))).toEqual(range(1, 40));
    expect(seqs(await log.read('s', 45))).toEqual([]);
  });

  it('reads what spilled while the archive was being read', async () => {
    const archive = new ListArchive();
    const log = new MemoryFrameLog({ spill: { archive, hotFrames: 10 } });
    await filled(log, archive, 50);
    await log.trim('s', { ...DAY, archivedThrough: 50 }, T0 + 200); // 1..40 spilled
    const read = archive.read.bind(archive);
    archive.read = async (...args) => {
      for (let seq = 51; seq <= 80; seq++) {
        const e = out(seq);
        await log.append('s', e);
        archive.entries.push(e);
      }
      await log.trim('s', { ...DAY, archivedThrough: 80 }, T0 + 200); // 41..70 spill meanwhile
      archive.read = read;
      return read(...args);
    };
    // The read covers what the log held when it was made; 41..50 left memory meanwhile.
    expect(seqs(await log.read('s', 0))).toEqual(range(1, 50));
    expect(seqs(await log.read('s', 0))).toEqual(range(1, 80));
  });

  it('reads back from a real transcript archive byte for byte', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ptyws-spill-'));
    try {
      const archive = new FileTranscriptArchive(dir);
      const log = new MemoryFrameLog({ spill: { archive, hotFrames: 8 } });
      const written: LogEntry[] = [];
      for (let seq = 1; seq <= 60; seq++) {
        const e: LogEntry =
          seq % 7 === 0
            ? {
                type: 'event',
                seq,
                id: `id-${seq}`,
                ts: T0 + seq,
                op: 'pty.session_frame',
                payload: { kind: 'Resize' },
              }
            : out(seq, 100 + seq);
        await log.append('s', e);
        written.push(e);
      }
      await archive.append('s', written);
      await log.trim('s', { ...DAY, archivedThrough: 60 }, T0 + 100);
      expect(await log.read('s', 0)).toEqual(written);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads like the log without spill under random appends, archiving, trims and reads', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('append' as const), n: fc.integer({ min: 1, max: 30 }) }),
            fc.record({ op: fc.constant('archive' as const), upTo: fc.integer({ min: 0, max: 400 }) }),
            fc.record({ op: fc.constant('trim' as const), minFrames: fc.integer({ min: 0, max: 80 }) }),
            fc.record({
              op: fc.constant('read' as const),
              after: fc.integer({ min: 0, max: 400 }),
              limit: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
            }),
          ),
          { maxLength: 40 },
        ),
        async (ops) => {
          const archive = new ListArchive();
          const spilling = new MemoryFrameLog({ spill: { archive, hotFrames: 7, hotBytes: 20_000 } });
          const plain = new MemoryFrameLog();
          let last = 0;
          let archived = 0;
          for (const o of ops) {
            if (o.op === 'append') {
              for (let k = 0; k < o.n; k++) {
                const e = out(++last);
                await spilling.append('s', e);
                await plain.append('s', e);
              }
            } else if (o.op === 'archive') {
              for (let seq = archived + 1; seq <= Math.min(o.upTo, last); seq++) archive.entries.push(out(seq));
              archived = Math.max(archived, Math.min(o.upTo, last));
            } else if (o.op === 'trim') {
              const policy = { minFrames: o.minFrames, minAgeMs: 0, archivedThrough: archived };
              const a = await spilling.trim('s', policy, T0 + 10_000);
              const b = await plain.trim('s', policy, T0 + 10_000);
              // Spilled runs go whole: the spilling log may keep more, never less.
              expect(a.lastSeq).toBe(b.lastSeq);
              expect(a.firstSeq).toBeLessThanOrEqual(b.firstSeq);
            } else {
              const opts = o.limit === undefined ? {} : { limit: o.limit };
              const a = seqs(await spilling.read('s', o.after, opts));
              const b = seqs(await plain.read('s', o.after, opts));
              const bounds = await spilling.bounds('s');
              const start = Math.max(o.after + 1, bounds.firstSeq);
              const count = Math.max(0, Math.min(o.limit ?? Infinity, bounds.lastSeq - start + 1));
              // Everything it retains from `after` on, contiguous, whether in memory or not ...
              expect(a).toEqual(range(start, start + count - 1));
              // ... and the same entries as the plain log where that one retains them.
              if (o.limit === undefined) {
                const { firstSeq } = await plain.bounds('s');
                expect(a.filter((seq) => seq >= firstSeq)).toEqual(b);
              }
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
