/**
 * Pipelined appends across a nats-server kill: the session's sequencer keeps many appends in
 * flight (no waiting for each ack) while a subscriber on another connection — what an edge's
 * session hub is — delivers what the stream republishes, merged with the early copies of small
 * entries. The server is SIGKILLed mid-stream and started again on the same store. Afterwards the
 * log must hold exactly 1..N, each entry the bytes that were sequenced for it, and the subscriber
 * must have delivered exactly 1..N, in order, once each.
 */
import { randomBytes } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { JetStreamFrameLog, connectNats } from '@pty-ws/adapters-nats';
import type { LogEntry } from '@pty-ws/ports';
import { Sequencer } from '@pty-ws/pty-agent/internal';
import { OwnNatsServer } from './support/nats-server';

jest.setTimeout(90_000);

const ENTRIES = 4000;
const KILL_AT = 1200;

let nats: OwnNatsServer;
const connections: NatsConnection[] = [];
const logs: JetStreamFrameLog[] = [];

beforeAll(async () => {
  nats = await OwnNatsServer.start();
});

afterAll(async () => {
  for (const l of logs) await l.close().catch(() => undefined);
  for (const nc of connections) await nc.close().catch(() => undefined);
  await nats.dispose();
});

async function connect(name: string): Promise<NatsConnection> {
  const nc = await connectNats(nats.url, name, { reconnectTimeWait: 200 });
  connections.push(nc);
  return nc;
}

/**
 * The append connection, counting JetStream publishes awaiting their ack at once: more than one
 * means the writer really pipelined (several appends out before the first was confirmed).
 */
function countingAcks(connect: () => Promise<NatsConnection>): {
  connect: () => Promise<NatsConnection>;
  max: () => number;
} {
  let now = 0;
  let max = 0;
  return {
    connect: async () => {
      const nc = await connect();
      const request = nc.request.bind(nc);
      nc.request = (...args: Parameters<NatsConnection['request']>) => {
        now++;
        max = Math.max(max, now);
        const p = request(...args);
        const done = () => now--;
        p.then(done, done);
        return p;
      };
      return nc;
    },
    max: () => max,
  };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Mostly echo-sized entries (sent early as well as stored), every 7th one too big for that. */
const payload = (seq: number): Uint8Array =>
  Buffer.from(`frame ${seq} ${'x'.repeat(seq % 7 === 0 ? 6000 : seq % 200)}\n`);

it('keeps the log and a live subscriber gapless, ordered and duplicate-free across a NATS kill', async () => {
  const suffix = randomBytes(5).toString('hex');
  const options = { prefix: `ptyws_pipe_${suffix}`, stream: `PTYWS_PIPE_${suffix}` };
  const writerNc = await connect('pipeline writer');
  const acks = countingAcks(() =>
    connectNats(nats.url, 'pipeline writer appends', { reconnect: false, timeout: 1000 }),
  );
  const writerLog = await JetStreamFrameLog.open(writerNc, { ...options, appendConnection: acks.connect });
  logs.push(writerLog);
  const readerLog = await JetStreamFrameLog.open(await connect('pipeline reader'), options);
  const sessionId = `pipe-${suffix}`;

  const delivered: number[] = [];
  const deliveredData = new Map<number, string>();
  readerLog.subscribe(sessionId, (e: LogEntry) => {
    delivered.push(e.seq);
    if (e.type === 'output') deliveredData.set(e.seq, Buffer.from(e.data).toString());
  });
  await writerNc.flush();

  let failure: Error | undefined;
  let confirmed = 0;
  const sequencer = new Sequencer({
    sessionId,
    log: writerLog,
    lastSeq: 0,
    onFailure: (err) => (failure = err),
    afterAppend: (e) => {
      expect(e.seq).toBe(confirmed + 1);
      confirmed = e.seq;
    },
  });

  // Output in bursts, as a busy PTY produces it: a burst is sequenced in one tick.
  let killed = false;
  for (let seq = 1; seq <= ENTRIES;) {
    for (const end = Math.min(seq + 20, ENTRIES + 1); seq < end; seq++) {
      expect(sequencer.output('stdout', payload(seq))).toBe(seq);
    }
    if (!killed && seq > KILL_AT) {
      killed = true;
      await nats.stop('SIGKILL');
      setTimeout(() => void nats.start(), 500);
    }
    await new Promise((r) => setImmediate(r));
  }
  await until('every append confirmed', () => confirmed === ENTRIES || failure !== undefined, 60_000);
  expect(failure).toBeUndefined();
  expect(acks.max()).toBeGreaterThan(1);

  const stored = await readerLog.read(sessionId, 0);
  expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: ENTRIES }, (_, i) => i + 1));
  for (const e of stored) {
    expect(e.type === 'output' && Buffer.from(e.data).toString()).toBe(Buffer.from(payload(e.seq)).toString());
  }

  await until('the subscriber to reach the end', () => delivered.length >= ENTRIES, 20_000);
  expect(delivered).toEqual(Array.from({ length: ENTRIES }, (_, i) => i + 1));
  for (let seq = 1; seq <= ENTRIES; seq++) expect(deliveredData.get(seq)).toBe(Buffer.from(payload(seq)).toString());
});
