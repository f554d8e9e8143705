import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { SequenceConflictError, type LogEntry, type OutputEntry } from '@pty-ws/ports';
import { uniqueId, waitFor } from '@pty-ws/testkit/contracts';
import { connectNats, JetStreamFrameLog } from '../src';
import { encodeMark } from '../src/codec';
import { FrameSubjects } from '../src/subjects';
import { connectForTest, dropAndClose, runNames } from './nats-fixture';

const T0 = 1_700_000_000_000;
const text = new TextDecoder();

function output(seq: number, body = `out ${seq}`, ts = T0 + seq * 1000): OutputEntry {
  return {
    type: 'output',
    seq,
    id: `00000000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
    ts,
    stream: 'stdout',
    data: new TextEncoder().encode(body),
  };
}

const bodies = (entries: readonly LogEntry[]): string[] =>
  entries.map((e) => (e.type === 'output' ? text.decode(e.data) : e.op));
const seqs = (entries: readonly LogEntry[]): number[] => entries.map((e) => e.seq);
const range = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/**
 * What the contract cannot see from one process: two writers on two connections (separate
 * processes in production), a subscriber elsewhere, sessions interleaved in the stream, and the
 * marks `trim` leaves.
 */
describe('JetStreamFrameLog across connections', () => {
  const names = runNames();
  let ncA: NatsConnection;
  let ncB: NatsConnection;
  let a: JetStreamFrameLog;
  let b: JetStreamFrameLog;

  beforeAll(async () => {
    ncA = await connectForTest();
    ncB = await connectForTest();
    a = await JetStreamFrameLog.open(ncA, { prefix: names.prefix, stream: names.stream });
    // The second open finds the stream in place: setup is idempotent.
    b = await JetStreamFrameLog.open(ncB, { prefix: names.prefix, stream: names.stream });
  });

  afterAll(async () => {
    await ncB.close();
    await dropAndClose(ncA, [names.stream]);
  });

  it('delivers appends to a subscriber on another connection, in order, stored bodies only', async () => {
    const session = uniqueId('session');
    await a.append(session, output(1));
    const got: LogEntry[] = [];
    const unsub = b.subscribe(session, (e) => got.push(e));
    await ncB.flush(); // the subscription is registered on the server before we append
    for (let seq = 2; seq <= 30; seq++) await a.append(session, output(seq));
    await waitFor(() => got.length >= 29, '29 entries on the other connection');
    expect(seqs(got)).toEqual(range(2, 30));
    unsub();
    await a.remove(session);
  });

  it('lets exactly one of two writers on two connections take a sequence; the subscriber sees one entry for it', async () => {
    for (let round = 0; round < 10; round++) {
      const session = uniqueId('session');
      await a.append(session, output(1));
      await b.append(session, output(2)); // both writers now hold a cached head at seq 2
      const seen: LogEntry[] = [];
      const unsub = a.subscribe(session, (e) => seen.push(e));
      await ncA.flush();
      const results = await Promise.allSettled([
        a.append(session, output(3, 'from a')),
        b.append(session, output(3, 'from b')),
      ]);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(rejected).toHaveLength(1);
      expect(rejected[0]?.reason).toBeInstanceOf(SequenceConflictError);
      expect(rejected[0]?.reason).toMatchObject({ sessionId: session, expected: 4, got: 3 });
      const stored = await a.read(session, 2);
      expect(seqs(stored)).toEqual([3]);
      await waitFor(() => seen.length >= 1, 'an entry at seq 3');
      // One entry at the contested sequence. The stream's republish carries only the winner, but a
      // small entry's early copy goes out before the store answers, so under load the loser's copy
      // can arrive first: with one writer per session (the agent) that copy is the entry the writer
      // retries; two writers are a split brain the SequenceConflictError reports (frame-log.ts).
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seqs(seen)).toEqual([3]);
      expect(['from a', 'from b']).toContain(bodies(seen)[0]);
      // The loser's next append, at the right sequence, goes through.
      const loser = results[0]?.status === 'rejected' ? a : b;
      await loser.append(session, output(4));
      expect(await b.bounds(session)).toEqual({ firstSeq: 1, lastSeq: 4 });
      unsub();
      await a.remove(session);
    }
  });

  it('keeps appending through a trim made elsewhere, even one that dropped everything', async () => {
    const session = uniqueId('session');
    for (let seq = 1; seq <= 5; seq++) await a.append(session, output(seq));
    // b drops everything, leaving a mark; a's cached head is now stale but its sequence is right.
    expect(await b.trim(session, { minFrames: 0, minAgeMs: 0 }, T0 + 100_000)).toEqual({ firstSeq: 6, lastSeq: 5 });
    await a.append(session, output(6));
    await expect(a.append(session, output(6))).rejects.toMatchObject({ expected: 7, got: 6 });
    expect(await b.bounds(session)).toEqual({ firstSeq: 6, lastSeq: 6 });
    expect(seqs(await b.read(session, 0))).toEqual([6]);
    await a.remove(session);
  });

  it('restarts at 1 for a writer whose cached head predates a remove made elsewhere', async () => {
    const session = uniqueId('session');
    for (let seq = 1; seq <= 3; seq++) await a.append(session, output(seq));
    await b.remove(session);
    await expect(a.append(session, output(4))).rejects.toMatchObject({ expected: 1, got: 4 });
    await a.append(session, output(1));
    expect(await b.bounds(session)).toEqual({ firstSeq: 1, lastSeq: 1 });
    await a.remove(session);
  });

  it('reads any range exactly while other sessions interleave in the stream', async () => {
    const sessions = [uniqueId('session'), uniqueId('session'), uniqueId('session')];
    const counts = [0, 0, 0];
    // A fixed pseudo-random interleaving, so positions in the stream are irregular.
    let x = 12345;
    for (let i = 0; i < 300; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      const k = x % 3;
      counts[k] = (counts[k] ?? 0) + 1;
      await a.append(sessions[k] as string, output(counts[k] as number, `s${k} ${counts[k]}`));
    }
    const s0 = sessions[0] as string;
    const n = counts[0] as number;
    for (const after of [0, 1, 2, 7, 33, Math.floor(n / 2), n - 2, n - 1]) {
      const page = await b.read(s0, after, { limit: 5 });
      expect(seqs(page)).toEqual(range(after + 1, Math.min(after + 5, n)));
      expect(bodies(page)).toEqual(range(after + 1, Math.min(after + 5, n)).map((s) => `s0 ${s}`));
    }
    expect(seqs(await b.read(s0, 10, { toSeq: 20 }))).toEqual(range(11, 20));
    // After a trim the search starts from the new first entry.
    expect(await b.trim(s0, { minFrames: n - 20, minAgeMs: 0 }, T0 + 10_000_000)).toEqual({ firstSeq: 21, lastSeq: n });
    expect(seqs(await b.read(s0, 30, { limit: 3 }))).toEqual([31, 32, 33]);
    expect(seqs(await b.read(s0, 0, { limit: 2 }))).toEqual([21, 22]);
    for (const s of sessions) await a.remove(s);
  });

  it('trims to the larger of the two windows, whichever it is', async () => {
    const session = uniqueId('session');
    // Ten entries one second apart; at `now` entry n is (10 - n) seconds old.
    for (let seq = 1; seq <= 10; seq++) await a.append(session, output(seq));
    const now = T0 + 10_000;
    // Frames window (last 7 → from 4) beats the age window (younger than 2.5 s → from 8).
    expect(await b.trim(session, { minFrames: 7, minAgeMs: 2_500 }, now)).toEqual({ firstSeq: 4, lastSeq: 10 });
    // Age window (younger than 4.5 s → from 6) beats the frames window (last 2 → from 9); 4 and 5 go.
    expect(await b.trim(session, { minFrames: 2, minAgeMs: 4_500 }, now)).toEqual({ firstSeq: 6, lastSeq: 10 });
    expect(seqs(await a.read(session, 0))).toEqual(range(6, 10));
    await a.remove(session);
  });

  it('reads past a mark left by a trim that stopped before its purge, and the next trim finishes it', async () => {
    const session = uniqueId('session');
    for (let seq = 1; seq <= 3; seq++) await a.append(session, output(seq));
    // What a trim that died between its mark and its purge leaves behind.
    const subject = new FrameSubjects(names.prefix).frames(session);
    await jetstream(ncA).publish(subject, new Uint8Array(0), { headers: encodeMark(3) });
    expect(await a.bounds(session)).toEqual({ firstSeq: 4, lastSeq: 3 });
    expect(await a.read(session, 0)).toEqual([]);
    for (let seq = 4; seq <= 6; seq++) await b.append(session, output(seq));
    // Entries 1-3 are still stored before the mark: not yet purged, so still readable, in order.
    expect(seqs(await a.read(session, 0))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seqs(await a.read(session, 2, { limit: 3 }))).toEqual([3, 4, 5]);
    expect(await a.trim(session, { minFrames: 2, minAgeMs: 0 }, T0 + 100_000)).toEqual({ firstSeq: 5, lastSeq: 6 });
    expect(seqs(await a.read(session, 0))).toEqual([5, 6]);
    await a.remove(session);
  });

  it('sends early copies of small Output only: an event waits for the store', async () => {
    const session = uniqueId('session');
    const early: string[] = [];
    const sub = ncB.subscribe(new FrameSubjects(names.prefix).early(session), {
      callback: (_err, msg) => early.push(msg.headers?.get('Ptyws-Type') ?? '?'),
    });
    await ncB.flush();
    await a.append(session, output(1, 'echo'));
    await a.append(session, { type: 'event', seq: 2, id: 'e-2', ts: T0, op: 'pty.session_frame', payload: {} });
    await a.append(session, output(3, 'x'.repeat(5000))); // too big to go early
    await a.append(session, output(4, 'prompt $ '));
    await ncA.flush();
    await ncB.flush();
    await waitFor(() => early.length >= 2, 'two early copies');
    await new Promise((resolve) => setTimeout(resolve, 50));
    sub.unsubscribe();
    // A restarted agent's Closed takes the sequence after the last stored one: an early copy of
    // an event its killed predecessor never stored would take that place at every subscriber.
    expect(early).toEqual(['output', 'output']);
    await a.remove(session);
  });

  it('keeps session ids apart that are not subject-safe', async () => {
    const odd = ['a.b', 'a b', 'a*', 'a>', 'ä/ö', '=YQ', ''];
    for (const [i, id] of odd.entries()) await a.append(id, output(1, `odd ${i}`));
    for (const [i, id] of odd.entries()) expect(bodies(await b.read(id, 0))).toEqual([`odd ${i}`]);
    for (const id of odd) await a.remove(id);
  });
});

describe('connectNats', () => {
  it('names the server (without credentials) and the failure', async () => {
    const attempt = connectNats('nats://user:secret@127.0.0.1:1', 'probe', { timeout: 1000 });
    await expect(attempt).rejects.toThrow(/cannot connect to NATS at nats:\/\/127\.0\.0\.1:1 \(as 'probe'\): \S/);
    await expect(attempt).rejects.not.toThrow(/secret/);
  });
});
