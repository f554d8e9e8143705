import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileTranscriptArchive, MemoryFrameLog } from '@pty-ws/adapters-memory';
import type { LogEntry, TranscriptArchive } from '@pty-ws/ports';
import { Metrics } from '@pty-ws/telemetry';
import { TranscriptArchiver, type ArchiverOptions } from '../src/archive/transcript-archiver';
import { ArchiveQuota } from '../src/archive/archive-quota';

const S = 'session-a';
const quiet = { warn: () => {} };
const entry = (seq: number): LogEntry => ({
  type: 'output',
  seq,
  id: `id-${seq}`,
  ts: 1_000 + seq,
  stream: 'stdout',
  data: new TextEncoder().encode(`frame ${seq}\n`),
});
const seqs = (es: readonly LogEntry[]) => es.map((e) => e.seq);
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

let dir: string;
let log: MemoryFrameLog;
let archive: FileTranscriptArchive;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ptyws-archiver-'));
  log = new MemoryFrameLog();
  archive = new FileTranscriptArchive(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function logged(from: number, to: number, archiver?: TranscriptArchiver): Promise<void> {
  for (let s = from; s <= to; s++) {
    await log.append(S, entry(s));
    archiver?.push(entry(s));
  }
}

/** An archiver on session S with 1 MiB chunks, a quiet logger and the given chunk size and flush. */
function archiverOf(
  store: TranscriptArchive,
  chunkFrames: number,
  flushMs: number,
  extra: Partial<ArchiverOptions> = {},
): TranscriptArchiver {
  return new TranscriptArchiver(S, store, log, {
    chunkFrames,
    chunkBytes: 1 << 20,
    flushMs,
    quietMs: 20,
    maxDeferMs: 60_000,
    maxDeferBytes: 1 << 30,
    maxHeldBytes: 1 << 30,
    logger: quiet,
    ...extra,
  });
}

/**
 * Turns of the event loop (real I/O, fake timers) until `done`, or false once `realMs` of real
 * time have passed (performance.now is not faked).
 */
async function turnsUntil(done: () => boolean, realMs = 5000): Promise<boolean> {
  const end = performance.now() + realMs;
  while (!done() && performance.now() < end) await new Promise((r) => setImmediate(r));
  return done();
}

describe('TranscriptArchiver', () => {
  it('writes what the sequencer hands over in chunks of at most chunkFrames', async () => {
    const a = archiverOf(archive, 4, 60_000);
    await logged(1, 10, a);
    await a.flush();
    expect(seqs(await archive.read(S, 0))).toEqual(range(1, 10));
    expect((await archive.stats(S)).chunks).toBe(3); // 4 + 4 + 2
    expect(a.archivedThrough).toBe(10);
  });

  it('a full chunk is written without waiting for the flush timer', async () => {
    const a = archiverOf(archive, 5, 60_000);
    await logged(1, 5, a);
    for (let i = 0; i < 200 && a.archivedThrough !== 5; i++) await new Promise((r) => setTimeout(r, 10));
    expect(a.archivedThrough).toBe(5);
  });

  it('fills what a previous owner left unarchived from the log (restart), then continues', async () => {
    await logged(1, 12);
    await archive.append(S, [entry(1), entry(2), entry(3)]);
    const a = archiverOf(archive, 100, 60_000);
    await logged(13, 15, a);
    await a.flush();
    expect(seqs(await archive.read(S, 0))).toEqual(range(1, 15));
  });

  it('catchUp archives everything the log holds beyond the archive (closed sessions)', async () => {
    await logged(1, 30);
    const a = archiverOf(archive, 8, 60_000);
    await a.catchUp();
    expect(seqs(await archive.read(S, 0))).toEqual(range(1, 30));
    expect(a.archivedThrough).toBe(30);
  });

  it('keeps entries through archive failures and retries; the trim guard holds meanwhile', async () => {
    let failing = 2;
    const flaky: TranscriptArchive = {
      append: (s, es) => (failing-- > 0 ? Promise.reject(new Error('db down')) : archive.append(s, es)),
      read: (s, a, o) => archive.read(s, a, o),
      stats: (s) => archive.stats(s),
      remove: (s) => archive.remove(s),
      dropOldest: (s, k) => archive.dropOldest(s, k),
    };
    const a = archiverOf(flaky, 100, 5);
    await logged(1, 6, a);
    await expect(a.flush()).rejects.toThrow('db down');
    expect(a.archivedThrough).toBe(0);
    // Retention of zero frames and zero seconds still may not drop anything unarchived.
    expect(await log.trim(S, { minFrames: 0, minAgeMs: 0, archivedThrough: a.archivedThrough }, 1e15)).toEqual({
      firstSeq: 1,
      lastSeq: 6,
    });
    for (let i = 0; i < 300 && a.archivedThrough !== 6; i++) await new Promise((r) => setTimeout(r, 10));
    expect(seqs(await archive.read(S, 0))).toEqual(range(1, 6));
    expect(await log.trim(S, { minFrames: 0, minAgeMs: 0, archivedThrough: a.archivedThrough }, 1e15)).toEqual({
      firstSeq: 7,
      lastSeq: 6,
    });
  });

  it('records chunks, bytes, failed writes and the frames waiting (ptyws_transcript_*)', async () => {
    let failing = 1;
    const flaky: TranscriptArchive = {
      append: (s, es) => (failing-- > 0 ? Promise.reject(new Error('disk full')) : archive.append(s, es)),
      read: (s, a, o) => archive.read(s, a, o),
      stats: (s) => archive.stats(s),
      remove: (s) => archive.remove(s),
      dropOldest: (s, k) => archive.dropOldest(s, k),
    };
    const metrics = new Metrics({ defaultMetrics: false });
    const value = async (name: string) => (await metrics.registry.getSingleMetric(name)!.get()).values[0]?.value;
    const a = archiverOf(flaky, 4, 60_000, { metrics });
    await logged(1, 3, a);
    expect(await value('ptyws_transcript_archive_lag_frames')).toBe(3);
    await expect(a.flush()).rejects.toThrow('disk full');
    expect(await value('ptyws_transcript_write_failures_total')).toBe(1);
    expect(await value('ptyws_transcript_archive_lag_frames')).toBe(3); // still waiting
    expect(await value('ptyws_transcript_chunks_written_total')).toBe(0);
    await logged(4, 10, a);
    await a.flush();
    expect(seqs(await archive.read(S, 0))).toEqual(range(1, 10));
    expect(await value('ptyws_transcript_archive_lag_frames')).toBe(0);
    expect(await value('ptyws_transcript_chunks_written_total')).toBe(3); // 4 + 4 + 2
    const bytes = range(1, 10).reduce((n, i) => n + `frame ${i}\n`.length, 0);
    expect(await value('ptyws_transcript_bytes_written_total')).toBe(bytes);
  });

  it('holds at most maxHeldBytes of output itself; what it let go of is read back from the log', async () => {
    const reads: number[] = [];
    const counting = new (class extends MemoryFrameLog {
      override read(...args: Parameters<MemoryFrameLog['read']>): ReturnType<MemoryFrameLog['read']> {
        reads.push(args[1]);
        return super.read(...args);
      }
    })();
    log = counting;
    const metrics = new Metrics({ defaultMetrics: false });
    const lag = async () =>
      (await metrics.registry.getSingleMetric('ptyws_transcript_archive_lag_frames')!.get()).values[0]?.value;
    // ~9 bytes an entry: it keeps 3-5 of them, the rest waits in the log only.
    const a = archiverOf(archive, 4, 60_000, { quietMs: 60_000, maxHeldBytes: 40, metrics });
    await logged(1, 30, a);
    expect(await lag()).toBe(30); // let go, still unwritten: counted
    expect(reads).toEqual([]);
    await a.flush();
    expect(seqs(await archive.read(S, 0))).toEqual(range(1, 30));
    expect(reads[0]).toBe(0); // from the archive's end, through what it let go of
    expect(reads.length).toBeGreaterThanOrEqual(6); // 25+ entries, 4 per chunk
    expect(await lag()).toBe(0);
  });

  it('what it reads back from the log is written in chunks of at most chunkBytes, like the rest', async () => {
    // 8-9 bytes an entry, chunks close at 20 bytes: three entries each (the last one read back
    // may be short), so ten or eleven chunks; as one read of 100 frames it was two or three.
    const a = archiverOf(archive, 100, 60_000, { quietMs: 60_000, maxHeldBytes: 40, chunkBytes: 20 });
    await logged(1, 30, a);
    await a.flush();
    expect(seqs(await archive.read(S, 0))).toEqual(range(1, 30));
    expect((await archive.stats(S)).chunks).toBeGreaterThanOrEqual(10);
  });

  it('entries it let go of and failed to write are read back again on the retry', async () => {
    let failing = 1; // the second chunk read back from the log
    const flaky: TranscriptArchive = {
      append: (s, es) =>
        es[0]!.seq > 4 && failing-- > 0 ? Promise.reject(new Error('db down')) : archive.append(s, es),
      read: (s, a, o) => archive.read(s, a, o),
      stats: (s) => archive.stats(s),
      remove: (s) => archive.remove(s),
      dropOldest: (s, k) => archive.dropOldest(s, k),
    };
    const metrics = new Metrics({ defaultMetrics: false });
    const lag = async () =>
      (await metrics.registry.getSingleMetric('ptyws_transcript_archive_lag_frames')!.get()).values[0]?.value;
    const a = archiverOf(flaky, 4, 60_000, { quietMs: 60_000, maxHeldBytes: 40, metrics });
    await logged(1, 30, a);
    await expect(a.flush()).rejects.toThrow('db down');
    expect(a.archivedThrough).toBe(4);
    expect(await lag()).toBe(26); // still let go (read back on the retry) or held
    await a.flush();
    expect(seqs(await archive.read(S, 0))).toEqual(range(1, 30));
    expect(await lag()).toBe(0);
  });

  it('every sequence is always in the log or the archive, whatever the interleaving of trims and flushes', async () => {
    const a = archiverOf(archive, 7, 1);
    let last = 0;
    for (let round = 0; round < 40; round++) {
      const n = 1 + ((round * 7) % 11);
      await logged(last + 1, last + n, a);
      last += n;
      if (round % 3 === 0) await a.flush();
      const bounds = await log.trim(S, { minFrames: 0, minAgeMs: 0, archivedThrough: a.archivedThrough }, 1e15);
      const archivedLast = (await archive.stats(S)).lastSeq;
      expect(bounds.firstSeq).toBeLessThanOrEqual(archivedLast + 1);
    }
    await a.close();
    expect(seqs(await archive.read(S, 0))).toEqual(range(1, last));
  });

  describe('yields to live output', () => {
    // Fake clocks and timers, real I/O: what is written when depends on time alone.
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask', 'performance'] }));
    afterEach(() => jest.useRealTimers());

    /** Hands over entries from..to, `everyMs` apart on the fake clock. */
    async function streamed(a: TranscriptArchiver, from: number, to: number, everyMs: number): Promise<void> {
      await a.flush(); // nothing to write yet: waits until the archiver knows where the archive ends
      for (let s = from; s <= to; s++) {
        await logged(s, s, a);
        jest.advanceTimersByTime(everyMs);
      }
    }

    it('full chunks wait while output keeps coming and are written once it pauses for quietMs', async () => {
      const a = archiverOf(archive, 4, 60_000, { quietMs: 100 });
      await streamed(a, 1, 40, 20); // ten full chunks, never 100 ms apart
      await turnsUntil(() => false, 300);
      expect(a.archivedThrough).toBe(0);
      jest.advanceTimersByTime(100);
      expect(await turnsUntil(() => a.archivedThrough === 40)).toBe(true);
      expect((await archive.stats(S)).chunks).toBe(10);
    });

    it('a pause while output is held for readers that are behind is no quiet: chunks wait until it flows and pauses', async () => {
      const a = archiverOf(archive, 4, 60_000, { quietMs: 100 });
      await streamed(a, 1, 20, 20); // five full chunks
      a.outputHeld(true); // every reader is behind: the PTY waits for them
      jest.advanceTimersByTime(1000);
      await turnsUntil(() => false, 300);
      expect(a.archivedThrough).toBe(0);
      a.outputHeld(false); // output flows again; the quiet clock starts now
      jest.advanceTimersByTime(50);
      await turnsUntil(() => false, 200);
      expect(a.archivedThrough).toBe(0);
      jest.advanceTimersByTime(60); // a real pause of quietMs after the release
      expect(await turnsUntil(() => a.archivedThrough === 20)).toBe(true);
    });

    it('held output still ends its wait at maxDeferMs', async () => {
      const a = archiverOf(archive, 4, 60_000, { quietMs: 100, maxDeferMs: 500 });
      await streamed(a, 1, 8, 20);
      a.outputHeld(true);
      jest.advanceTimersByTime(600);
      expect(await turnsUntil(() => a.archivedThrough === 8)).toBe(true);
    });

    it('an endless stream is written once its oldest waiting entry is maxDeferMs old', async () => {
      const a = archiverOf(archive, 4, 60_000, { quietMs: 100, maxDeferMs: 500 });
      await streamed(a, 1, 40, 20); // 800 ms of output
      await turnsUntil(() => false, 300);
      // Written at 500 ms (entries 1..25 or so), the rest waits for the next bound or pause.
      expect(a.archivedThrough).toBeGreaterThanOrEqual(20);
      expect(a.archivedThrough).toBeLessThan(40);
      expect(seqs(await archive.read(S, 0))).toEqual(range(1, a.archivedThrough!));
    });

    it('a stream is written while it flows once maxDeferBytes are waiting', async () => {
      const a = archiverOf(archive, 4, 60_000, { quietMs: 100, maxDeferBytes: 60 }); // ~7 entries
      await streamed(a, 1, 10, 1);
      expect(await turnsUntil(() => (a.archivedThrough ?? 0) > 0)).toBe(true);
      expect(a.archivedThrough).toBeLessThan(10);
    });

    it('what waits for a pause is written when the archiver closes (session ended mid-stream)', async () => {
      const a = archiverOf(archive, 4, 60_000, { quietMs: 100 });
      await streamed(a, 1, 20, 20);
      expect(a.archivedThrough).toBe(0);
      await a.close();
      expect(seqs(await archive.read(S, 0))).toEqual(range(1, 20));
    });

    it('a partial chunk waits flushMs, then for output to pause (a session being typed in)', async () => {
      const a = archiverOf(archive, 100, 300, { quietMs: 100 });
      await streamed(a, 1, 20, 20); // 400 ms, never a full chunk, never 100 ms quiet
      await turnsUntil(() => false, 300);
      expect(a.archivedThrough).toBe(0);
      jest.advanceTimersByTime(100);
      expect(await turnsUntil(() => a.archivedThrough === 20)).toBe(true);
    });

    it('a partial chunk is written flushMs after its oldest entry when output has paused by then', async () => {
      const a = archiverOf(archive, 100, 300, { quietMs: 100 });
      await streamed(a, 1, 3, 20); // 60 ms of output, then quiet
      jest.advanceTimersByTime(180); // 240 ms after the first entry: quiet, but not flushMs old
      await turnsUntil(() => false, 300);
      expect(a.archivedThrough).toBe(0);
      jest.advanceTimersByTime(70);
      expect(await turnsUntil(() => a.archivedThrough === 3)).toBe(true);
    });

    it('a partial chunk waits no longer than maxDeferMs while output keeps coming', async () => {
      const a = archiverOf(archive, 100, 300, { quietMs: 100, maxDeferMs: 500 });
      await streamed(a, 1, 40, 20); // 800 ms of output, never a full chunk
      await turnsUntil(() => false, 300);
      expect(a.archivedThrough).toBeGreaterThanOrEqual(20);
      expect(a.archivedThrough).toBeLessThan(40);
      expect(seqs(await archive.read(S, 0))).toEqual(range(1, a.archivedThrough!));
    });
  });
});

describe('TranscriptArchiver byte quotas', () => {
  it('drops the oldest chunks past the session quota, and the log lets them go', async () => {
    const warnings: Array<Record<string, unknown>> = [];
    const quota = new ArchiveQuota(400, 0);
    const a = archiverOf(archive, 10, 60_000, { quota, logger: { warn: (obj) => warnings.push({ ...obj }) } });
    await logged(1, 100, a);
    await a.flush();
    const stats = await archive.stats(S);
    expect(stats.lastSeq).toBe(100);
    expect(stats.firstSeq).toBeGreaterThan(1);
    expect(stats.bytes).toBeLessThanOrEqual(400);
    expect(warnings.some((w) => w['audit'] === 'transcript_trimmed' && w['session_id'] === S)).toBe(true);
    expect(a.guard({ minFrames: 1000, minAgeMs: 0 }).droppedThrough).toBe(stats.firstSeq - 1);
  });

  it('trims the session writing when the agent total is over its quota', async () => {
    const quota = new ArchiveQuota(0, 1000);
    expect(quota.report('other', 900)).toBeUndefined();
    expect(quota.report(S, 300)).toBe(100);
    quota.forget('other');
    expect(quota.report(S, 300)).toBeUndefined();
  });
});
