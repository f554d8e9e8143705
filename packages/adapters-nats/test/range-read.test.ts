import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { LogEntry, OutputEntry } from '@pty-ws/ports';
import { uniqueId } from '@pty-ws/testkit/contracts';
import { isNatsOutage, JetStreamFrameLog } from '../src';
import { DirectGets, DirectGetTimeoutError } from '../src/direct-gets';
import { connectForTest, dropAndClose, runNames } from './nats-fixture';

function output(seq: number): OutputEntry {
  return {
    type: 'output',
    seq,
    id: `00000000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
    ts: 1_700_000_000_000 + seq,
    stream: 'stdout',
    data: new TextEncoder().encode(`out ${seq}`),
  };
}

const seqs = (entries: readonly LogEntry[]): number[] => entries.map((e) => e.seq);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Consumers on the stream right now: a read must leave none behind. */
async function consumerCount(jsm: JetStreamManager, stream: string): Promise<number> {
  return (await jsm.consumers.list(stream).next()).length;
}

/** Counts the consumers created on the stream while `work` runs (the server's advisories). */
async function consumersCreatedDuring(nc: NatsConnection, stream: string, work: () => Promise<void>): Promise<number> {
  let created = 0;
  const sub = nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.CREATED.${stream}.*`, { callback: () => created++ });
  try {
    await nc.flush();
    await work();
    await nc.flush();
    await new Promise((resolve) => setTimeout(resolve, 200)); // advisories are sent asynchronously
  } finally {
    sub.unsubscribe();
  }
  return created;
}

/**
 * Ranges are read with pipelined direct gets, never a consumer: sessions interleaved irregularly
 * in one stream, many readers at once, and a stream that stops answering.
 */
describe('JetStreamFrameLog range reads', () => {
  const names = runNames();
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let log: JetStreamFrameLog;
  const dense = uniqueId('dense');
  const mixed = uniqueId('mixed');
  const other = uniqueId('other');

  beforeAll(async () => {
    nc = await connectForTest();
    jsm = await jetstreamManager(nc);
    log = await JetStreamFrameLog.open(nc, { prefix: names.prefix, stream: names.stream, storage: 'memory' });
    // `dense` writes alone; `mixed` shares the stream with `other` in irregular bursts (0..7 of
    // `other` between two of its entries), so the positions of its entries follow no pattern.
    for (let seq = 1; seq <= 300; seq++) await log.append(dense, output(seq));
    let otherSeq = 0;
    let rng = 7;
    for (let seq = 1; seq <= 1200; seq++) {
      await log.append(mixed, output(seq));
      rng = (rng * 1103515245 + 12345) % 2 ** 31;
      for (let i = 0; i < (rng >> 16) % 8; i++) await log.append(other, output(++otherSeq));
    }
  }, 120_000);

  afterAll(async () => {
    await log.close();
    await dropAndClose(nc, [names.stream]);
  });

  it('reads every range of a session written alone and of one interleaved with another', async () => {
    const created = await consumersCreatedDuring(nc, names.stream, async () => {
      expect(seqs(await log.read(dense, 0))).toEqual(range(1, 300));
      expect(seqs(await log.read(dense, 17, { toSeq: 250 }))).toEqual(range(18, 250));
      expect(seqs(await log.read(mixed, 0))).toEqual(range(1, 1200));
      expect(seqs(await log.read(mixed, 99, { limit: 64 }))).toEqual(range(100, 163));
      expect(seqs(await log.read(mixed, 1000, { toSeq: 1100, limit: 500 }))).toEqual(range(1001, 1100));
      expect(seqs(await log.read(mixed, 1199))).toEqual([1200]);
    });
    expect(created).toBe(0);
    expect(await consumerCount(jsm, names.stream)).toBe(0);
  });

  it('gives each of many concurrent readers every entry, and creates no consumer', async () => {
    let reads: LogEntry[][] = [];
    const created = await consumersCreatedDuring(nc, names.stream, async () => {
      // Each on a log of its own, as on separate edges: nothing is shared through the entry cache.
      const logs = await Promise.all(
        Array.from({ length: 12 }, () =>
          JetStreamFrameLog.open(nc, { prefix: names.prefix, stream: names.stream, storage: 'memory' }),
        ),
      );
      reads = await Promise.all(logs.map((l, i) => l.read(i % 2 ? mixed : dense, i * 5, i % 3 ? { limit: 128 } : {})));
      await Promise.all(logs.map((l) => l.close()));
    });
    expect(created).toBe(0);
    reads.forEach((entries, i) => {
      const last = i % 2 ? 1200 : 300;
      const to = i % 3 ? Math.min(last, i * 5 + 128) : last;
      expect(seqs(entries)).toEqual(range(i * 5 + 1, to));
    });
    expect(await consumerCount(jsm, names.stream)).toBe(0);
  });

  it('serves what a reader here has seen from the entry cache, with only the bounds from the stream', async () => {
    const fresh = await JetStreamFrameLog.open(nc, { prefix: names.prefix, stream: names.stream, storage: 'memory' });
    let gets = 0;
    const counter = nc.subscribe(`$JS.API.DIRECT.GET.${names.stream}`, {
      callback: () => {
        gets++;
      },
    });
    try {
      expect(seqs(await fresh.read(mixed, 200, { toSeq: 900 }))).toEqual(range(201, 900));
      await nc.flush();
      const first = gets;
      expect(first).toBeGreaterThan(700);
      expect(seqs(await fresh.read(mixed, 300, { toSeq: 800 }))).toEqual(range(301, 800));
      await nc.flush();
      expect(gets - first).toBe(2); // the subject's first and last message
    } finally {
      counter.unsubscribe();
      await fresh.close();
    }
  });

  it('fails a batch the stream stops answering, as an outage, instead of waiting for good', async () => {
    // A responder that swallows direct gets: the stream is there but answers nothing.
    const mute = `PTYWS_MUTE_${names.stream}`;
    const sink = nc.subscribe(`$JS.API.DIRECT.GET.${mute}`, { callback: () => undefined });
    const gets = new DirectGets(nc, mute);
    try {
      const started = Date.now();
      const failure = await gets.getMany([{ next_by_subj: 'x' }, { seq: 5, next_by_subj: 'x' }]).catch((e) => e);
      expect(failure).toBeInstanceOf(DirectGetTimeoutError);
      expect(isNatsOutage(failure)).toBe(true);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      gets.close();
      sink.unsubscribe();
    }
  }, 30_000);
});
