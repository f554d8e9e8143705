import { MemoryFrameLog } from '@pty-ws/adapters-memory';
import { entryWeight, type FrameLog, type LogEntry } from '@pty-ws/ports';
import { ManualClock } from '@pty-ws/testkit';
import { Sequencer, type SequencerOptions } from '../src/session/sequencer';

const S = 'session-a';
const text = (e: LogEntry) => (e.type === 'output' ? Buffer.from(e.data).toString() : e.op);
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/**
 * A remote log in miniature: every append resolves on a later turn (so several are outstanding
 * at once) and the ones `failing` picks are lost on the way without reaching the log, as
 * publishes on a dropped connection are.
 */
function remoteLog(inner: FrameLog, failing: (seq: number, attempt: number) => boolean) {
  const attempts = new Map<number, number>();
  let outstanding = 0;
  let maxOutstanding = 0;
  let outstandingBytes = 0;
  let maxOutstandingBytes = 0;
  const log: FrameLog = Object.create(inner) as FrameLog;
  log.append = async (sessionId, entry) => {
    const attempt = (attempts.get(entry.seq) ?? 0) + 1;
    attempts.set(entry.seq, attempt);
    outstanding++;
    maxOutstanding = Math.max(maxOutstanding, outstanding);
    outstandingBytes += entryWeight(entry);
    maxOutstandingBytes = Math.max(maxOutstandingBytes, outstandingBytes);
    try {
      await new Promise((resolve) => setImmediate(resolve));
      if (failing(entry.seq, attempt)) throw new Error(`append ${entry.seq} lost with the connection`);
      await inner.append(sessionId, entry);
    } finally {
      outstanding--;
      outstandingBytes -= entryWeight(entry);
    }
  };
  return {
    log,
    maxOutstanding: () => maxOutstanding,
    maxOutstandingBytes: () => maxOutstandingBytes,
    attempts: (seq: number) => attempts.get(seq) ?? 0,
  };
}

async function settled(sequencer: Sequencer): Promise<void> {
  // flushed() is the chain at call time: wait until it stays the same across a call.
  for (let last: Promise<void> | undefined; last !== sequencer.flushed();) {
    last = sequencer.flushed();
    await last;
  }
}

/** A sequencer of session S on `log` from sequence 0, recording failures and confirmed sequences. */
function sequencerOn(log: FrameLog, clock?: ManualClock, more: Partial<SequencerOptions> = {}) {
  const confirmed: number[] = [];
  const failures: Error[] = [];
  const sequencer = new Sequencer({
    sessionId: S,
    log,
    lastSeq: 0,
    onFailure: (err) => failures.push(err),
    afterAppend: (e) => confirmed.push(e.seq),
    ...(clock ? { clock } : {}),
    ...more,
  });
  return { sequencer, confirmed, failures };
}

describe('Sequencer', () => {
  it('keeps several appends in flight and confirms them in order', async () => {
    const inner = new MemoryFrameLog();
    const remote = remoteLog(inner, () => false);
    const { sequencer, confirmed, failures } = sequencerOn(remote.log);
    for (const n of range(200)) sequencer.output('stdout', Buffer.from(`frame ${n}`));
    await settled(sequencer);
    expect(failures).toEqual([]);
    expect(remote.maxOutstanding()).toBeGreaterThan(1);
    expect(confirmed).toEqual(range(200));
    expect((await inner.read(S, 0)).map(text)).toEqual(range(200).map((n) => `frame ${n}`));
  });

  it('keeps at most 32 appends and 4 MiB in flight; a larger frame goes alone', async () => {
    const MiB = 1024 * 1024;
    // Keystroke-sized frames: the count bounds the pipeline.
    const small = remoteLog(new MemoryFrameLog(), () => false);
    const a = sequencerOn(small.log);
    for (const n of range(200)) a.sequencer.output('stdout', Buffer.from(`frame ${n}`));
    await settled(a.sequencer);
    expect(small.maxOutstanding()).toBe(32);
    // 256 KiB frames: the bytes do (what reaches an edge after the PTY stops being read: HeldOutput, edge ws/output-flow).
    const big = remoteLog(new MemoryFrameLog(), () => false);
    const b = sequencerOn(big.log);
    for (let n = 0; n < 40; n++) b.sequencer.output('stdout', Buffer.alloc(256 * 1024, 0x61));
    await settled(b.sequencer);
    expect(big.maxOutstanding()).toBeGreaterThan(1);
    expect(big.maxOutstandingBytes()).toBeLessThanOrEqual(4 * MiB);
    // A frame past the bound on its own goes once nothing else is in flight, and the rest follow.
    b.sequencer.output('stdout', Buffer.alloc(5 * MiB, 0x62));
    for (let n = 0; n < 8; n++) b.sequencer.output('stdout', Buffer.alloc(256 * 1024, 0x63));
    await settled(b.sequencer);
    expect(b.failures).toEqual([]);
    expect(b.confirmed).toEqual(range(49));
  });

  it('after a lost append, appends it and everything issued behind it again, in order, once each', async () => {
    const inner = new MemoryFrameLog();
    // Two outages; behind each, the appends already sent fail too (the log refuses them as out of order).
    const remote = remoteLog(inner, (seq, attempt) => attempt === 1 && (seq === 40 || seq === 41 || seq === 150));
    const { sequencer, confirmed, failures } = sequencerOn(remote.log);
    for (const n of range(300)) {
      sequencer.output('stdout', Buffer.from(`frame ${n}`));
      if (n % 25 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await settled(sequencer);
    expect(failures).toEqual([]);
    for (const lost of [40, 41, 150]) expect(remote.attempts(lost)).toBeGreaterThan(1);
    expect(confirmed).toEqual(range(300));
    expect((await inner.read(S, 0)).map(text)).toEqual(range(300).map((n) => `frame ${n}`));
  });

  it('gives up on a sequence conflict with nothing in flight before it: another writer', async () => {
    const inner = new MemoryFrameLog();
    await inner.append(S, { type: 'output', seq: 1, id: 'other', ts: 1, stream: 'stdout', data: Buffer.from('x') });
    const { sequencer, failures } = sequencerOn(inner);
    sequencer.output('stdout', Buffer.from('mine'));
    sequencer.output('stdout', Buffer.from('mine too'));
    await settled(sequencer);
    expect(failures.map((e) => e.name)).toEqual(['SequenceConflictError']);
    expect((await inner.read(S, 0)).map(text)).toEqual(['x']);
  });

  it('retries an outage for the two-minute window of its clock, then gives up (manual clock: no waiting)', async () => {
    const clock = new ManualClock();
    const down = Object.create(new MemoryFrameLog()) as FrameLog;
    let attempts = 0;
    down.append = () => {
      attempts++;
      return Promise.reject(new Error('NATS is down'));
    };
    const { sequencer, failures } = sequencerOn(down, clock);
    sequencer.output('stdout', Buffer.from('x'));
    const turns = async () => {
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    await turns();
    for (let t = 0; t < 110_000; t += 1000) {
      clock.advance(1000);
      await turns();
    }
    expect(failures).toEqual([]);
    expect(attempts).toBeGreaterThan(5); // backed off: 50 ms doubling to 2 s
    for (let t = 0; t < 15_000 && failures.length === 0; t += 1000) {
      clock.advance(1000);
      await turns();
    }
    expect(failures.map((e) => e.message)).toEqual(['NATS is down']);
  });

  it('says past the waiting bound that output should wait, and once half is left that it may flow; nothing is lost', async () => {
    const clock = new ManualClock();
    const inner = new MemoryFrameLog();
    let down = true;
    const log = Object.create(inner) as FrameLog;
    log.append = (sessionId, entry) =>
      down ? Promise.reject(new Error('NATS is down')) : inner.append(sessionId, entry);
    const told: boolean[] = [];
    let waitingBytes = 0;
    const { sequencer, confirmed, failures } = sequencerOn(log, clock, {
      giveUpMs: 60_000,
      waitingBound: 10_000,
      onWaiting: (over) => told.push(over),
      onWaitingBytes: (delta) => (waitingBytes += delta),
    });
    const frame = (n: number) => Buffer.from(`frame ${n} `.padEnd(1000, '.'));
    for (const n of range(10)) sequencer.output('stdout', frame(n));
    expect(told).toEqual([]); // 10 000 bytes: at the bound, not past it
    sequencer.output('stdout', frame(11));
    expect(told).toEqual([true]);
    expect(waitingBytes).toBe(11_000);
    const turns = async () => {
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    for (let t = 0; t < 5000; t += 500) {
      clock.advance(500);
      await turns();
    }
    expect(told).toEqual([true]); // still down: still waiting
    down = false;
    while (confirmed.length < 11) {
      clock.advance(500);
      await turns();
    }
    await settled(sequencer);
    expect(told).toEqual([true, false]);
    expect(waitingBytes).toBe(0);
    expect(failures).toEqual([]);
    expect(confirmed).toEqual(range(11));
    expect((await inner.read(S, 0)).map(text)).toEqual(range(11).map((n) => frame(n).toString()));
  });

  it('gives up after its configured window, and drops what waited (nothing more is counted as waiting)', async () => {
    const clock = new ManualClock();
    const down = Object.create(new MemoryFrameLog()) as FrameLog;
    down.append = () => Promise.reject(new Error('NATS is down'));
    let waitingBytes = 0;
    const { sequencer, failures } = sequencerOn(down, clock, {
      giveUpMs: 3000,
      onWaitingBytes: (delta) => (waitingBytes += delta),
    });
    for (const n of range(5)) sequencer.output('stdout', Buffer.from(`frame ${n}`));
    for (let t = 0; t < 10_000 && failures.length === 0; t += 250) {
      clock.advance(250);
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(failures.map((e) => e.message)).toEqual(['NATS is down']);
    expect(clock.monotonic()).toBeLessThan(5000);
    await settled(sequencer);
    expect(sequencer.failed).toBe(true);
    expect(waitingBytes).toBe(0);
  });
});
