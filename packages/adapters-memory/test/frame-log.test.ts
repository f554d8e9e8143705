import fc from 'fast-check';
import type { LogEntry } from '@pty-ws/ports';
import { MemoryFrameLog } from '../src';

const T0 = 1_700_000_000_000;
const out = (seq: number, ts = T0 + seq): LogEntry => ({
  type: 'output',
  seq,
  id: `id-${seq}`,
  ts,
  stream: 'stdout',
  data: Uint8Array.of(seq & 0xff),
});

describe('MemoryFrameLog specifics', () => {
  it('calls subscribers synchronously inside append, before it resolves', () => {
    const log = new MemoryFrameLog();
    const got: number[] = [];
    log.subscribe('s', (e) => got.push(e.seq));
    void log.append('s', out(1));
    expect(got).toEqual([1]);
  });

  it('keeps every subscriber in order when a subscriber appends while being called', async () => {
    const log = new MemoryFrameLog();
    const first: number[] = [];
    const second: number[] = [];
    // Like an owner that appends a cadence Keyframe after every third Output.
    log.subscribe('s', (e) => {
      first.push(e.seq);
      if (e.seq % 3 === 0) void log.append('s', out(e.seq + 1));
    });
    log.subscribe('s', (e) => second.push(e.seq));
    for (let seq = 1; seq <= 10;) {
      await log.append('s', out(seq));
      seq = (await log.bounds('s')).lastSeq + 1;
    }
    const expected = Array.from({ length: (await log.bounds('s')).lastSeq }, (_, i) => i + 1);
    expect(first).toEqual(expected);
    expect(second).toEqual(expected);
  });

  it('does not deliver the current entry to a subscriber added during its delivery', async () => {
    const log = new MemoryFrameLog();
    const late: number[] = [];
    log.subscribe('s', (e) => {
      if (e.seq === 1) log.subscribe('s', (x) => late.push(x.seq));
    });
    await log.append('s', out(1));
    await log.append('s', out(2));
    expect(late).toEqual([2]);
  });

  it('skips a subscriber unsubscribed by an earlier one during the same delivery', async () => {
    const log = new MemoryFrameLog();
    const got: number[] = [];
    let unsubLater = (): void => {};
    log.subscribe('s', () => unsubLater());
    unsubLater = log.subscribe('s', (e) => got.push(e.seq));
    await log.append('s', out(1));
    expect(got).toEqual([]);
  });

  it('reports a throwing subscriber with its session and sequence', async () => {
    const reports: [unknown, string, number][] = [];
    const log = new MemoryFrameLog({ onSubscriberError: (err, session, seq) => reports.push([err, session, seq]) });
    const boom = new Error('boom');
    log.subscribe('s', () => {
      throw boom;
    });
    await log.append('s', out(1));
    expect(reports).toEqual([[boom, 's', 1]]);
  });

  it('keeps delivering when the error reporter itself throws', async () => {
    const log = new MemoryFrameLog({
      onSubscriberError: () => {
        throw new Error('reporter broken');
      },
    });
    const got: number[] = [];
    log.subscribe('s', () => {
      throw new Error('boom');
    });
    log.subscribe('s', (e) => got.push(e.seq));
    await expect(log.append('s', out(1))).resolves.toBeUndefined();
    expect(got).toEqual([1]);
  });

  it('keeps subscribers across remove', async () => {
    const log = new MemoryFrameLog();
    const got: number[] = [];
    log.subscribe('s', (e) => got.push(e.seq));
    await log.append('s', out(1));
    await log.remove('s');
    await log.append('s', out(1));
    expect(got).toEqual([1, 1]);
  });

  it('stores and returns entries by reference (immutable by contract, not by copy)', async () => {
    const log = new MemoryFrameLog();
    const e = out(1);
    await log.append('s', e);
    const [read] = await log.read('s', 0);
    expect(read).toBe(e);
  });

  it('rejects non-integer read arguments rather than guessing', async () => {
    const log = new MemoryFrameLog();
    await log.append('s', out(1));
    await expect(log.read('s', Number.NaN)).rejects.toBeInstanceOf(RangeError);
    await expect(log.read('s', 0, { limit: 1.5 })).rejects.toBeInstanceOf(RangeError);
  });

  it('stays correct across many trims and compactions', async () => {
    const log = new MemoryFrameLog();
    for (let seq = 1; seq <= 20_000; seq++) {
      await log.append('s', out(seq, T0 + seq));
      if (seq % 97 === 0) await log.trim('s', { minFrames: 300, minAgeMs: 0 }, T0 + seq);
    }
    const bounds = await log.bounds('s');
    expect(bounds.lastSeq).toBe(20_000);
    const all = await log.read('s', 0);
    expect(all.map((e) => e.seq)).toEqual(Array.from({ length: all.length }, (_, i) => bounds.firstSeq + i));
    expect(all.length).toBeGreaterThanOrEqual(300);
  });

  // The log against an obviously correct model: a plain array filtered on every trim.
  it('behaves like a naive model under random appends, trims and reads', async () => {
    type Op =
      | { kind: 'append'; n: number; dt: number }
      | { kind: 'trim'; minFrames: number; minAgeMs: number }
      | { kind: 'read'; after: number; to?: number; limit?: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        kind: fc.constant('append' as const),
        n: fc.integer({ min: 1, max: 40 }),
        dt: fc.integer({ min: 0, max: 50 }),
      }),
      fc.record({
        kind: fc.constant('trim' as const),
        minFrames: fc.integer({ min: 0, max: 60 }),
        minAgeMs: fc.integer({ min: 0, max: 2000 }),
      }),
      fc.record(
        {
          kind: fc.constant('read' as const),
          after: fc.integer({ min: -2, max: 400 }),
          to: fc.integer({ min: 0, max: 400 }),
          limit: fc.integer({ min: 0, max: 50 }),
        },
        { requiredKeys: ['kind', 'after'] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        const log = new MemoryFrameLog();
        let model: LogEntry[] = [];
        let lastSeq = 0;
        let now = T0;
        for (const o of ops) {
          if (o.kind === 'append') {
            for (let i = 0; i < o.n; i++) {
              now += o.dt;
              const e = out(++lastSeq, now);
              await log.append('s', e);
              model.push(e);
            }
          } else if (o.kind === 'trim') {
            // Trimming only ever cuts a prefix, so the model drops the prefix of entries that neither window keeps.
            const keepFrom = model.findIndex((e) => e.seq > lastSeq - o.minFrames || now - e.ts < o.minAgeMs);
            model = keepFrom === -1 ? [] : model.slice(keepFrom);
            const bounds = await log.trim('s', { minFrames: o.minFrames, minAgeMs: o.minAgeMs }, now);
            expect(bounds).toEqual({ firstSeq: model[0]?.seq ?? lastSeq + 1, lastSeq });
          } else {
            const expected = model
              .filter((e) => e.seq > o.after && (o.to === undefined || e.seq <= o.to))
              .slice(0, o.limit ?? Infinity);
            const opts = {
              ...(o.to !== undefined ? { toSeq: o.to } : {}),
              ...(o.limit !== undefined ? { limit: o.limit } : {}),
            };
            expect(await log.read('s', o.after, opts)).toEqual(expected);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('appends in constant time per entry', async () => {
    // A shift() per append or an O(n) trim would copy the retained entries again and again: count
    // the array elements shifted, spliced and sliced (work, not wall-clock time, which load skews).
    const log = new MemoryFrameLog();
    let moved = 0;
    const { shift, splice, slice } = Array.prototype;
    const count = <A extends unknown[], R>(f: (this: unknown[], ...a: A) => R) =>
      function (this: unknown[], ...a: A): R {
        moved += this.length;
        return f.apply(this, a);
      };
    Array.prototype.shift = count(shift);
    Array.prototype.splice = count(splice as (this: unknown[], ...a: unknown[]) => unknown[]);
    Array.prototype.slice = count(slice as (this: unknown[], ...a: unknown[]) => unknown[]);
    try {
      for (let seq = 1; seq <= 200_000; seq++) {
        await log.append('s', out(seq, T0 + seq));
        if (seq % 1000 === 0) await log.trim('s', { minFrames: 1000, minAgeMs: 0 }, T0 + seq);
      }
    } finally {
      Object.assign(Array.prototype, { shift, splice, slice });
    }
    // Amortised compaction copies each entry a bounded number of times; a shift per append would
    // move ~1000 retained entries each time (2e8 in all).
    expect(moved).toBeLessThan(4 * 200_000);
    expect(await log.bounds('s')).toEqual({ firstSeq: 199_001, lastSeq: 200_000 });
  });
});
