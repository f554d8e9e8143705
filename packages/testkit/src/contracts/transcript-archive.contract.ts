import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  SequenceConflictError,
  type EventEntry,
  type LogEntry,
  type OutputEntry,
  type TranscriptArchive,
} from '@pty-ws/ports';
import { uniqueId } from './support';

export interface TranscriptArchiveFixture {
  archive: TranscriptArchive;
  /** A second archive over the same storage (a restarted process), when the backend is durable. */
  reopen(): Promise<TranscriptArchive>;
  cleanup(): Promise<void>;
}

const T0 = 1_700_000_000_000;

function output(seq: number, text = `out ${seq}\r\n`): OutputEntry {
  return {
    type: 'output',
    seq,
    id: `00000000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
    ts: T0 + seq,
    stream: 'stdout',
    data: new TextEncoder().encode(text),
  };
}

function event(seq: number): EventEntry {
  return {
    type: 'event',
    seq,
    id: `00000000-0000-7000-9000-${String(seq).padStart(12, '0')}`,
    ts: T0 + seq,
    op: 'pty.session_frame',
    payload: { kind: 'Resize', cols: 80 + seq, rows: 24 },
    ...(seq % 6 === 0 ? { taskId: `task-${seq}`, serviceParameters: { 'x-trace': `t${seq}` } } : {}),
  };
}

const entry = (seq: number): LogEntry => (seq % 3 === 0 ? event(seq) : output(seq));
const run = (from: number, to: number): LogEntry[] =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => entry(from + i));
const seqs = (entries: readonly LogEntry[]): number[] => entries.map((e) => e.seq);
const comparable = (e: LogEntry): unknown => (e.type === 'output' ? { ...e, data: Array.from(e.data) } : { ...e });

/**
 * The TranscriptArchive contract (ports/src/transcript-archive.ts): gapless runs per session,
 * repeats dropped, gaps refused, range reads across chunks that reproduce entries exactly.
 */
export function transcriptArchiveContract(name: string, make: () => Promise<TranscriptArchiveFixture>): void {
  describe(`TranscriptArchive contract: ${name}`, () => {
    let fixture: TranscriptArchiveFixture;
    let archive: TranscriptArchive;
    let session: string;

    beforeEach(async () => {
      fixture = await make();
      archive = fixture.archive;
      session = uniqueId('session');
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('an unknown session has nothing archived', async () => {
      expect(await archive.stats(session)).toEqual({ firstSeq: 1, lastSeq: 0, frames: 0, chunks: 0, bytes: 0 });
      expect(await archive.read(session, 0)).toEqual([]);
    });

    it('reproduces entries byte for byte across chunks, in order', async () => {
      await archive.append(session, run(1, 4));
      await archive.append(session, run(5, 5));
      await archive.append(session, run(6, 12));
      const all = await archive.read(session, 0);
      expect(all.map(comparable)).toEqual(run(1, 12).map(comparable));
      const stats = await archive.stats(session);
      expect(stats).toMatchObject({ firstSeq: 1, lastSeq: 12, frames: 12, chunks: 3 });
      expect(stats.bytes).toBeGreaterThan(0);
    });

    it('reads ranges and limits that start and end inside chunks', async () => {
      await archive.append(session, run(1, 10));
      await archive.append(session, run(11, 20));
      await archive.append(session, run(21, 30));
      expect(seqs(await archive.read(session, 7, { toSeq: 23 }))).toEqual(run(8, 23).map((e) => e.seq));
      expect(seqs(await archive.read(session, 7, { limit: 5 }))).toEqual([8, 9, 10, 11, 12]);
      expect(seqs(await archive.read(session, 25))).toEqual([26, 27, 28, 29, 30]);
      expect(seqs(await archive.read(session, 30))).toEqual([]);
      expect(seqs(await archive.read(session, 0, { toSeq: 0 }))).toEqual([]);
      expect(seqs(await archive.read(session, 0, { limit: 0 }))).toEqual([]);
    });

    it('drops repeats (a retried append) and refuses a gap', async () => {
      await archive.append(session, run(1, 5));
      await archive.append(session, run(3, 7)); // 3..5 again: only 6..7 are new
      await archive.append(session, run(1, 7)); // nothing new
      expect(seqs(await archive.read(session, 0))).toEqual([1, 2, 3, 4, 5, 6, 7]);
      await expect(archive.append(session, run(9, 10))).rejects.toBeInstanceOf(SequenceConflictError);
      await expect(archive.append(session, [entry(8), entry(10)])).rejects.toBeInstanceOf(SequenceConflictError);
      expect((await archive.stats(session)).lastSeq).toBe(7);
    });

    it('may start past 1 (a session older than its archive) and stays gapless from there', async () => {
      await archive.append(session, run(40, 45));
      expect(await archive.stats(session)).toMatchObject({ firstSeq: 40, lastSeq: 45, frames: 6 });
      expect(seqs(await archive.read(session, 0, { limit: 2 }))).toEqual([40, 41]);
    });

    it('keeps sessions apart and forgets one on remove', async () => {
      const other = uniqueId('session');
      await archive.append(session, run(1, 3));
      await archive.append(other, run(1, 2));
      await archive.remove(session);
      expect(await archive.read(session, 0)).toEqual([]);
      expect((await archive.stats(session)).frames).toBe(0);
      expect(seqs(await archive.read(other, 0))).toEqual([1, 2]);
      await archive.append(session, run(1, 1)); // a removed session starts over
      expect(seqs(await archive.read(session, 0))).toEqual([1]);
    });

    it('is durable: a reopened archive reads what was appended and continues it', async () => {
      await archive.append(session, run(1, 6));
      const again = await fixture.reopen();
      expect((await again.read(session, 0)).map(comparable)).toEqual(run(1, 6).map(comparable));
      await again.append(session, run(7, 8));
      expect(await again.stats(session)).toMatchObject({ firstSeq: 1, lastSeq: 8, chunks: 2 });
    });

    it('takes large binary output (invalid UTF-8, NULs) intact', async () => {
      const bytes = new Uint8Array(200_000).map((_, i) => (i * 7919) % 256);
      const big: OutputEntry = { ...output(1), data: bytes };
      await archive.append(session, [big]);
      const [back] = await archive.read(session, 0);
      expect(back?.type === 'output' && Buffer.from(back.data).equals(Buffer.from(bytes))).toBe(true);
    });

    it('dropOldest keeps the newest chunks within the byte quota, and appends continue after it', async () => {
      for (let c = 0; c < 6; c++) await archive.append(session, run(c * 4 + 1, c * 4 + 4));
      const before = await archive.stats(session);
      const perChunk = before.bytes / before.chunks;
      const trim = await archive.dropOldest(session, Math.floor(perChunk * 2.5));
      expect(trim).toMatchObject({ chunks: 4, frames: 16, firstSeq: 17 });
      expect(trim.bytes + trim.remainingBytes).toBe(before.bytes);
      expect(await archive.stats(session)).toMatchObject({ firstSeq: 17, lastSeq: 24, chunks: 2 });
      expect(seqs(await archive.read(session, 0))).toEqual(seqs(run(17, 24)));
      await archive.append(session, run(25, 26));
      expect(seqs(await archive.read(session, 20))).toEqual(seqs(run(21, 26)));
      // The newest chunk stays, whatever the quota; within the quota nothing goes.
      expect((await archive.dropOldest(session, 0)).chunks).toBe(2);
      expect(await archive.stats(session)).toMatchObject({ firstSeq: 25, lastSeq: 26, chunks: 1 });
      expect((await archive.dropOldest(session, Number.MAX_SAFE_INTEGER)).chunks).toBe(0);
      const again = await fixture.reopen();
      expect(seqs(await again.read(session, 0))).toEqual(seqs(run(25, 26)));
    });
  });
}
