import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  SequenceConflictError,
  type EventEntry,
  type FrameLog,
  type LogCut,
  type LogEntry,
  type OutputEntry,
} from '@pty-ws/ports';
import { settle, uniqueId, waitFor } from './support';

export interface FrameLogFixture {
  log: FrameLog;
  cleanup(): Promise<void>;
}

const T0 = 1_700_000_000_000;

function output(seq: number, ts = T0 + seq, text = `out ${seq}`): OutputEntry {
  return {
    type: 'output',
    seq,
    id: `00000000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
    ts,
    stream: 'stdout',
    data: new TextEncoder().encode(text),
  };
}

function event(seq: number, ts = T0 + seq): EventEntry {
  return {
    type: 'event',
    seq,
    id: `00000000-0000-7000-9000-${String(seq).padStart(12, '0')}`,
    ts,
    op: 'pty.session_frame',
    payload: { kind: 'Resize', cols: 80 + seq, rows: 24 },
  };
}

/** Output at odd sequences, events at even: replay must keep both kinds in one order. */
const entry = (seq: number, ts?: number): LogEntry => (seq % 2 === 1 ? output(seq, ts) : event(seq, ts));

/** A backend may hand back a Buffer or a copy; what matters is the bytes and fields. */
function comparable(e: LogEntry): unknown {
  return e.type === 'output' ? { ...e, data: Array.from(e.data) } : { ...e };
}

const seqs = (entries: readonly LogEntry[]): number[] => entries.map((e) => e.seq);
const range = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/**
 * The FrameLog contract (ports/src/frame-log.ts, docs/spec/README.md interpretations 1 and 7), run against
 * every implementation. `makeLog` returns a fresh log (or a fresh view of a shared backend);
 * every test uses its own session ids.
 */
export function frameLogContract(name: string, makeLog: () => Promise<FrameLogFixture>): void {
  describe(`FrameLog contract: ${name}`, () => {
    let fixture: FrameLogFixture;
    let log: FrameLog;
    let session: string;

    beforeEach(async () => {
      fixture = await makeLog();
      log = fixture.log;
      session = uniqueId('session');
    });
    afterEach(async () => {
      await log.remove(session);
      await fixture.cleanup();
    });

    async function appendRange(from: number, to: number, ts?: (seq: number) => number): Promise<void> {
      for (const seq of range(from, to)) await log.append(session, entry(seq, ts?.(seq)));
    }

    describe('append', () => {
      it('starts an unknown session at bounds {firstSeq: 1, lastSeq: 0}', async () => {
        expect(await log.bounds(session)).toEqual({ firstSeq: 1, lastSeq: 0 });
      });

      it('accepts gapless sequences from 1 and reports the bounds', async () => {
        await appendRange(1, 5);
        expect(await log.bounds(session)).toEqual({ firstSeq: 1, lastSeq: 5 });
      });

      it('round-trips both entry kinds field for field, bytes included', async () => {
        const out: OutputEntry = {
          ...output(1),
          data: Uint8Array.from([0, 0x1b, 0x5b, 0xff, 0xfe, 10]),
          stream: 'stderr',
        };
        const ev: EventEntry = {
          ...event(2),
          op: 'pty.task_status_update',
          payload: { task_id: 't1', status: { state: 'WORKING' }, nested: [1, 'two', null] },
          taskId: 't1',
          serviceParameters: { tenant: 'acme' },
        };
        await log.append(session, out);
        await log.append(session, ev);
        expect((await log.read(session, 0)).map(comparable)).toEqual([out, ev].map(comparable));
      });

      it.each([
        ['a first sequence other than 1', [], 2, 1],
        ['a gap', [1, 2], 4, 3],
        ['a repeated sequence', [1, 2], 2, 3],
        ['an older sequence', [1, 2, 3], 1, 4],
      ])(
        'rejects %s with SequenceConflictError and leaves the log unchanged',
        async (_label, before, bad, expected) => {
          for (const seq of before) await log.append(session, entry(seq));
          const attempt = log.append(session, entry(bad));
          await expect(attempt).rejects.toBeInstanceOf(SequenceConflictError);
          await expect(attempt).rejects.toMatchObject({ sessionId: session, expected, got: bad });
          expect(await log.bounds(session)).toEqual({ firstSeq: 1, lastSeq: before.length });
          expect(seqs(await log.read(session, 0))).toEqual(before);
        },
      );

      it('lets exactly one of two racing writers take a sequence', async () => {
        await log.append(session, entry(1));
        const results = await Promise.allSettled([
          log.append(session, output(2, T0, 'a')),
          log.append(session, output(2, T0, 'b')),
        ]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(rejected?.reason).toBeInstanceOf(SequenceConflictError);
        expect(seqs(await log.read(session, 0))).toEqual([1, 2]);
      });

      it('keeps sessions independent', async () => {
        const other = uniqueId('session');
        await appendRange(1, 3);
        await log.append(other, entry(1));
        expect(await log.bounds(session)).toEqual({ firstSeq: 1, lastSeq: 3 });
        expect(await log.bounds(other)).toEqual({ firstSeq: 1, lastSeq: 1 });
        await log.remove(other);
      });
    });

    describe('read', () => {
      beforeEach(async () => {
        await appendRange(1, 10);
      });

      it.each<[string, number, { toSeq?: number; limit?: number } | undefined, number[]]>([
        ['everything after 0', 0, undefined, range(1, 10)],
        ['everything after a sequence', 3, undefined, range(4, 10)],
        ['up to toSeq inclusive', 3, { toSeq: 5 }, [4, 5]],
        ['at most limit entries', 3, { limit: 2 }, [4, 5]],
        ['the tighter of toSeq and limit (toSeq)', 3, { toSeq: 6, limit: 10 }, [4, 5, 6]],
        ['the tighter of toSeq and limit (limit)', 3, { toSeq: 9, limit: 1 }, [4]],
        ['a toSeq past the end as the end', 0, { toSeq: 100 }, range(1, 10)],
        ['nothing after the last sequence', 10, undefined, []],
        ['nothing after a sequence not yet written', 15, undefined, []],
        ['nothing for an empty range', 5, { toSeq: 5 }, []],
        ['nothing for limit 0', 0, { limit: 0 }, []],
      ])('returns %s', async (_label, afterSeq, opts, expected) => {
        expect(seqs(await log.read(session, afterSeq, opts))).toEqual(expected);
      });

      it('returns nothing for an unknown session', async () => {
        expect(await log.read(uniqueId('session'), 0)).toEqual([]);
      });

      it('pages through the log with afterSeq = last seen', async () => {
        const seen: number[] = [];
        for (let after = 0; ;) {
          const page = await log.read(session, after, { limit: 3 });
          if (page.length === 0) break;
          seen.push(...seqs(page));
          after = seen[seen.length - 1] ?? after;
        }
        expect(seen).toEqual(range(1, 10));
      });
    });

    describe('subscribe', () => {
      it('delivers entries appended after subscribing, in order, to every subscriber', async () => {
        await appendRange(1, 2);
        const a: number[] = [];
        const b: number[] = [];
        const unsubA = log.subscribe(session, (e) => a.push(e.seq));
        const unsubB = log.subscribe(session, (e) => b.push(e.seq));
        await appendRange(3, 40);
        await waitFor(() => a.length >= 38 && b.length >= 38, 'both subscribers to receive 38 entries');
        // A subscriber may see an entry twice across reconnects and must drop seq <= last seen.
        const dedupe = (xs: number[]): number[] => xs.filter((s, i) => i === 0 || s > (xs[i - 1] ?? 0));
        expect(dedupe(a)).toEqual(range(3, 40));
        expect(dedupe(b)).toEqual(range(3, 40));
        unsubA();
        unsubB();
      });

      it('delivers the entry as appended', async () => {
        const got: LogEntry[] = [];
        const unsub = log.subscribe(session, (e) => got.push(e));
        await log.append(session, output(1, T0, 'hello'));
        await waitFor(() => got.length === 1, 'one entry');
        expect(got.map(comparable)).toEqual([comparable(output(1, T0, 'hello'))]);
        unsub();
      });

      it('delivers only the subscribed session', async () => {
        const other = uniqueId('session');
        const got: string[] = [];
        const unsub = log.subscribe(session, (e) => got.push(`${e.seq}`));
        await log.append(other, entry(1));
        await log.append(session, entry(1));
        await waitFor(() => got.length >= 1, 'one entry');
        await settle();
        expect(got).toEqual(['1']);
        unsub();
        await log.remove(other);
      });

      it('stops delivering after unsubscribe, without affecting other subscribers', async () => {
        const a: number[] = [];
        const b: number[] = [];
        const unsubA = log.subscribe(session, (e) => a.push(e.seq));
        const unsubB = log.subscribe(session, (e) => b.push(e.seq));
        await log.append(session, entry(1));
        await waitFor(() => a.length === 1 && b.length === 1, 'both to receive seq 1');
        unsubA();
        unsubA(); // a second call is harmless
        await appendRange(2, 3);
        await waitFor(() => b.length === 3, 'the remaining subscriber to receive seq 3');
        await settle();
        expect(a).toEqual([1]);
        expect(b).toEqual([1, 2, 3]);
        unsubB();
      });

      it('survives a throwing subscriber: the append succeeds and others still receive', async () => {
        const got: number[] = [];
        const unsubBad = log.subscribe(session, () => {
          throw new Error('subscriber bug');
        });
        const unsubGood = log.subscribe(session, (e) => got.push(e.seq));
        await appendRange(1, 3);
        await waitFor(() => got.length === 3, 'three entries');
        expect(got).toEqual([1, 2, 3]);
        expect(await log.bounds(session)).toEqual({ firstSeq: 1, lastSeq: 3 });
        unsubBad();
        unsubGood();
      });

      it('does not deliver rejected appends', async () => {
        const got: number[] = [];
        const unsub = log.subscribe(session, (e) => got.push(e.seq));
        await log.append(session, entry(1));
        await expect(log.append(session, entry(3))).rejects.toBeInstanceOf(SequenceConflictError);
        await log.append(session, entry(2));
        await waitFor(() => got.length === 2, 'two entries');
        await settle();
        expect(got).toEqual([1, 2]);
        unsub();
      });
    });

    describe('announceCut (the owner gave the log up)', () => {
      it("reaches the session's subscribers that listen for it, and no other session's", async () => {
        if (!log.announceCut) return; // a log that cannot fail need not have it
        const other = uniqueId('session');
        const cuts: LogCut[] = [];
        const elsewhere: LogCut[] = [];
        const unsub = log.subscribe(
          session,
          () => {},
          (cut) => cuts.push(cut),
        );
        const unsubOther = log.subscribe(
          other,
          () => {},
          (cut) => elsewhere.push(cut),
        );
        const unsubDeaf = log.subscribe(session, () => {}); // no onCut: nothing to tell
        log.announceCut(session, { lastSeq: 7, message: 'the log was unreachable' });
        await waitFor(() => cuts.length === 1, 'the notice');
        await settle();
        expect(cuts).toEqual([{ lastSeq: 7, message: 'the log was unreachable' }]);
        expect(elsewhere).toEqual([]);
        unsub();
        unsubOther();
        unsubDeaf();
      });
    });

    describe('trim (docs/spec/README.md interpretation 7: the larger window wins)', () => {
      // Ten entries one second apart; at `now`, seq n is (10 - n) seconds old.
      const now = T0 + 10_000;
      beforeEach(async () => {
        await appendRange(1, 10, (seq) => T0 + seq * 1000);
      });

      it.each<[string, number, number, number]>([
        ['the frames window when it is larger', 5, 2_500, 6],
        ['the age window when it is larger', 2, 6_500, 4],
        ['everything when both windows cover it', 10, 0, 1],
        ['everything young enough', 0, 60_000, 1],
        ['an entry exactly minAgeMs old is not younger: it goes', 0, 6_000, 5],
        ['more frames than exist', 50, 0, 1],
      ])('keeps %s', async (_label, minFrames, minAgeMs, firstSeq) => {
        expect(await log.trim(session, { minFrames, minAgeMs }, now)).toEqual({ firstSeq, lastSeq: 10 });
        expect(await log.bounds(session)).toEqual({ firstSeq, lastSeq: 10 });
        expect(seqs(await log.read(session, 0))).toEqual(range(firstSeq, 10));
      });

      it('can drop everything, and the sequence carries on', async () => {
        expect(await log.trim(session, { minFrames: 0, minAgeMs: 0 }, now)).toEqual({ firstSeq: 11, lastSeq: 10 });
        expect(await log.read(session, 0)).toEqual([]);
        await expect(log.append(session, entry(1))).rejects.toMatchObject({ expected: 11, got: 1 });
        await log.append(session, entry(11));
        expect(await log.bounds(session)).toEqual({ firstSeq: 11, lastSeq: 11 });
      });

      it('never drops an entry above archivedThrough (not yet in the transcript archive)', async () => {
        expect(await log.trim(session, { minFrames: 0, minAgeMs: 0, archivedThrough: 3 }, now)).toEqual({
          firstSeq: 4,
          lastSeq: 10,
        });
        expect(await log.trim(session, { minFrames: 2, minAgeMs: 0, archivedThrough: 0 }, now)).toEqual({
          firstSeq: 4,
          lastSeq: 10,
        });
        expect(await log.trim(session, { minFrames: 2, minAgeMs: 0, archivedThrough: 10 }, now)).toEqual({
          firstSeq: 9,
          lastSeq: 10,
        });
      });

      it('reads from the new first sequence after a trim', async () => {
        await log.trim(session, { minFrames: 5, minAgeMs: 0 }, now);
        expect(seqs(await log.read(session, 2, { toSeq: 7 }))).toEqual([6, 7]);
        expect(seqs(await log.read(session, 0, { limit: 2 }))).toEqual([6, 7]);
      });

      it('never brings trimmed entries back', async () => {
        await log.trim(session, { minFrames: 3, minAgeMs: 0 }, now);
        expect(await log.trim(session, { minFrames: 10, minAgeMs: 60_000 }, now)).toEqual({ firstSeq: 8, lastSeq: 10 });
      });

      it('keeps appending and trimming consistent over time', async () => {
        await appendRange(11, 20, (seq) => T0 + seq * 1000);
        expect(await log.trim(session, { minFrames: 4, minAgeMs: 5_000 }, T0 + 20_000)).toEqual({
          firstSeq: 16,
          lastSeq: 20,
        });
      });

      it('returns {firstSeq: 1, lastSeq: 0} for an unknown session', async () => {
        expect(await log.trim(uniqueId('session'), { minFrames: 0, minAgeMs: 0 }, now)).toEqual({
          firstSeq: 1,
          lastSeq: 0,
        });
      });
    });

    describe('remove', () => {
      it('forgets the session: empty bounds, nothing to read, sequence restarts at 1', async () => {
        await appendRange(1, 3);
        await log.remove(session);
        expect(await log.bounds(session)).toEqual({ firstSeq: 1, lastSeq: 0 });
        expect(await log.read(session, 0)).toEqual([]);
        await log.append(session, entry(1));
        expect(await log.bounds(session)).toEqual({ firstSeq: 1, lastSeq: 1 });
      });

      it('leaves other sessions alone and accepts unknown sessions', async () => {
        const other = uniqueId('session');
        await appendRange(1, 2);
        await log.append(other, entry(1));
        await log.remove(other);
        await log.remove(uniqueId('session'));
        expect(await log.bounds(session)).toEqual({ firstSeq: 1, lastSeq: 2 });
      });
    });
  });
}
