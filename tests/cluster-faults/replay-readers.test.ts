/**
 * Replay in cluster mode reads the JetStream log with direct gets only:
 * - readers replaying a closed session at once, on both edges, each get every frame and the goodbye;
 * - readers joining a live session with `replay_from: 0` at once each get every frame in order;
 * - no consumer is created on the frame stream by any of it (the server's advisories are
 *   counted), none is left behind, also after a reader that went away mid-replay;
 * - a log that stops answering mid-replay ends the reader with an Error naming where to resume
 *   and a close (1011), never a replay that silently stops.
 * Two sessions print at once, so their entries are interleaved in the stream.
 */
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { defaultFrameStreamName } from '@pty-ws/adapters-nats';
import { errorPayloadOf, is, seqOf, type EdgeHandle, type TestClient } from '@pty-ws/testkit';
import { httpRequest } from './support/http';
import { sequenceReport, useFaultCluster } from './support/cluster';

jest.setTimeout(120_000);

const NATS_URL = process.env['PTYWS_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
/** Lines each printing session writes, one every few milliseconds: about as many log entries. */
const LINES = 500;
const printer = (tag: string, lines = LINES): string[] => [
  '/bin/sh',
  '-c',
  `i=0; while [ $i -lt ${lines} ]; do echo ${tag}$i; i=$((i+1)); sleep 0.004; done`,
];

const fc = useFaultCluster({ slowConsumerBytes: 256 * 1024 });
let nc: NatsConnection;
let jsm: JetStreamManager;

beforeAll(async () => {
  nc = await connect({ servers: NATS_URL });
  jsm = await jetstreamManager(nc);
});
afterAll(async () => {
  await nc?.close();
});

const stream = (): string => defaultFrameStreamName(fc().cluster.natsPrefix);

async function consumerCount(): Promise<number> {
  return (await jsm.consumers.list(stream()).next()).length;
}

/** Consumers created on the frame stream while `work` runs, from the server's advisories. */
async function consumersCreatedDuring(work: () => Promise<void>): Promise<number> {
  let created = 0;
  const sub = nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.CREATED.${stream()}.*`, {
    callback: () => {
      created++;
    },
  });
  try {
    await nc.flush();
    await work();
    await new Promise((resolve) => setTimeout(resolve, 300)); // advisories are sent asynchronously
  } finally {
    sub.unsubscribe();
  }
  return created;
}

async function createSession(edge: EdgeHandle, argv: string[]): Promise<string> {
  const res = await httpRequest(edge.httpUrl, 'POST', '/api/v1/sessions', {
    token: fc().cluster.adminToken,
    json: { argv, cols: 80, rows: 24 },
  });
  const id = (res.body as { session_id?: unknown } | undefined)?.session_id;
  if (res.status !== 201 || typeof id !== 'string') throw new Error(`create session → ${res.status} ${res.text}`);
  return id;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function state(id: string): Promise<string | undefined> {
  const edge = fc().cluster.edges[0] as EdgeHandle;
  const r = await httpRequest(edge.httpUrl, 'GET', `/api/v1/sessions/${id}`, { token: fc().cluster.adminToken });
  return (r.body as { state?: string }).state;
}

async function closed(id: string): Promise<void> {
  await until(`session ${id} to close`, async () => (await state(id)) === 'closed');
}

/** Readers spread over both edges, each sending its join with `replay_from: 0` at once. */
async function replayers(id: string, count: number): Promise<TestClient[]> {
  const edges = fc().cluster.edges;
  const clients = await Promise.all(
    Array.from({ length: count }, (_, i) => fc().attach(edges[i % edges.length] as EdgeHandle, id)),
  );
  for (const c of clients) c.send('pty.join_session', { role: 'observer' }, { replay_from: 0 });
  return clients;
}

describe('cluster replay reads the log with direct gets', () => {
  const both: { closedId?: string; liveId?: string } = {};

  it('readers of a closed session at once each get every frame, and no consumer is made', async () => {
    const [edgeA] = fc().cluster.edges as [EdgeHandle];
    both.closedId = await createSession(edgeA, printer('c'));
    // Prints on past the first one's close, its entries interleaved with the first one's.
    both.liveId = await createSession(edgeA, printer('l', LINES * 3));
    await closed(both.closedId);
    const before = await consumerCount();
    let clients: TestClient[] = [];
    const created = await consumersCreatedDuring(async () => {
      clients = await replayers(both.closedId as string, 6);
      await Promise.all(clients.map((c) => c.closed));
    });
    for (const c of clients) {
      const { seqs, problems } = sequenceReport(c.frames);
      expect(problems).toEqual([]);
      expect(seqs[0]).toBe(1);
      expect(seqs.length).toBeGreaterThan(LINES / 4);
      const goodbye = c.frames.find(is.op('binding_goodbye'));
      expect(goodbye?.type === 'json' && goodbye.frame.payload).toMatchObject({ reason: 'session_closed' });
      const closedFrame = c.frames.find(is.kind('Closed'));
      expect(closedFrame && seqOf(closedFrame)).toBe(seqs[seqs.length - 1]);
    }
    // Every reader got the same frames.
    expect(new Set(clients.map((c) => sequenceReport(c.frames).seqs.length)).size).toBe(1);
    expect(created).toBe(0);
    expect(await consumerCount()).toBe(before);
  });

  it('readers joining a live session from 0 at once each get every frame in order', async () => {
    const id = both.liveId as string;
    expect(await state(id)).toBe('running');
    let clients: TestClient[] = [];
    const created = await consumersCreatedDuring(async () => {
      clients = await replayers(id, 6);
      await Promise.all(clients.map((c) => c.waitFor(is.kind('Keyframe'), 20_000)));
    });
    await closed(id);
    for (const c of clients) {
      await c.waitFor(is.op('binding_goodbye'), 20_000);
      const { seqs, problems } = sequenceReport(c.frames);
      expect(problems).toEqual([]);
      expect(seqs[0]).toBe(1);
      expect(seqs.length).toBeGreaterThan(LINES);
      expect(c.frames.find((r) => errorPayloadOf(r) !== undefined)).toBeUndefined();
    }
    expect(created).toBe(0);
    expect(await consumerCount()).toBe(0);
  });

  it('a reader that goes away mid-replay leaves nothing behind', async () => {
    const edges = fc().cluster.edges as EdgeHandle[];
    const id = await createSession(edges[0] as EdgeHandle, ['/bin/sh', '-c', 'head -c 3000000 /dev/zero | base64']);
    await closed(id);
    const created = await consumersCreatedDuring(async () => {
      const [c] = await replayers(id, 1);
      const reader = c as TestClient;
      await reader.waitFor((r) => seqOf(r) !== undefined, 10_000);
      reader.terminate();
      // The session is still replayable in full for the next reader.
      const [next] = await replayers(id, 1);
      await (next as TestClient).closed;
      expect(sequenceReport((next as TestClient).frames).problems).toEqual([]);
    });
    expect(created).toBe(0);
    expect(await consumerCount()).toBe(0);
  });

  it('a log that stops answering mid-replay ends the reader with an Error and a close, not silence', async () => {
    const edges = fc().cluster.edges as EdgeHandle[];
    // More output than a paused reader's socket can absorb: loopback TCP buffers grow to tens of
    // MB (tcp_rmem up to 32 MiB here) and a replay batch is up to 64 entries of 256 KiB, so a
    // smaller session is wholly in flight before the log goes mute and the test proves nothing.
    const id = await createSession(edges[0] as EdgeHandle, ['/bin/sh', '-c', 'head -c 48000000 /dev/zero | base64']);
    await closed(id);
    const [c] = await replayers(id, 1);
    const reader = c as TestClient;
    // The replay fills the socket and waits for the reader to take more.
    reader.pauseReading();
    await new Promise((r) => setTimeout(r, 1500));
    expect(reader.frames.some((r) => seqOf(r) !== undefined && is.kind('Closed')(r))).toBe(false);
    // The stream stops answering direct gets: its own subscription goes, a mute one takes its place.
    const info = await jsm.streams.info(stream());
    await jsm.streams.update(stream(), { ...info.config, allow_direct: false });
    const mute = nc.subscribe(`$JS.API.DIRECT.GET.${stream()}`, { callback: () => undefined });
    await nc.flush();
    try {
      reader.resumeReading();
      const close = await Promise.race([
        reader.closed,
        new Promise<undefined>((r) => setTimeout(() => r(undefined), 30_000)),
      ]);
      expect(close?.code).toBe(1011);
      const error = reader.frames.map(errorPayloadOf).find((e) => e?.code === 'INTERNAL');
      expect(error?.message).toMatch(/frame log could not be read .*reconnect with replay_from \d+/);
      const { seqs, problems } = sequenceReport(reader.frames);
      expect(problems).toEqual([]);
      expect(error?.message).toContain(`replay_from ${seqs[seqs.length - 1]}`);
    } finally {
      mute.unsubscribe();
      await jsm.streams.update(stream(), { ...info.config, allow_direct: true });
    }
  });
});
