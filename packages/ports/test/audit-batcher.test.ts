import { AuditBatcher, type AuditEvent } from '../src';

const ev = (i: number): AuditEvent => ({
  at: i,
  type: 'input',
  instanceId: 'i',
  principal: 'p',
  disclosure: false,
  detail: { i },
});

describe('AuditBatcher', () => {
  it('while a write hangs, record stays synchronous and the queue drops its oldest past the bound', async () => {
    let release!: () => void;
    const hang = new Promise<void>((r) => (release = r));
    const written: number[] = [];
    const dropped: number[] = [];
    let calls = 0;
    const b = new AuditBatcher({
      maxBatch: 10,
      maxQueued: 100,
      flushIntervalMs: 1,
      write: async (batch) => {
        if (calls++ === 0) await hang;
        written.push(...batch.map((e) => e.detail['i'] as number));
      },
      onProblem: (p) => dropped.push(p.dropped),
    });
    for (let i = 0; i < 1000; i++) b.record(ev(i));
    expect(b.queued).toBeLessThanOrEqual(100);
    expect(b.dropped).toBeGreaterThanOrEqual(890);
    release();
    await b.flush();
    expect(written.slice(0, 10)).toEqual([...Array(10).keys()]); // the batch in flight
    expect(written[written.length - 1]).toBe(999); // the newest survive
    expect(written.length).toBe(10 + 1000 - 10 - b.dropped);
    expect(dropped.reduce((a, n) => a + n, 0)).toBe(b.dropped);
  });

  it('a failed write keeps its batch and retries it, in order', async () => {
    const written: number[] = [];
    let fail = true;
    const problems: string[] = [];
    const b = new AuditBatcher({
      maxBatch: 5,
      retryMs: 20,
      flushIntervalMs: 1,
      write: async (batch) => {
        if (fail) throw new Error('db down');
        written.push(...batch.map((e) => e.detail['i'] as number));
      },
      onProblem: (p) => problems.push(p.error?.message ?? ''),
    });
    for (let i = 0; i < 7; i++) b.record(ev(i));
    await b.flush();
    expect(written).toEqual([]);
    expect(problems[0]).toBe('db down');
    fail = false;
    await new Promise((r) => setTimeout(r, 60));
    await b.flush();
    expect(written).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
