/**
 * A 3-node NATS JetStream cluster under the cluster (1 agent, 2 edges), given to every process
 * as one comma-separated PTYWS_NATS_URL, every stream and bucket with 3 replicas. While a session
 * prints numbered lines to observers on both edges, each node is killed (SIGKILL) in turn and
 * started again: the one the agent appends through, JetStream's meta leader, the stream's leader,
 * a follower, and the stream's leader once more with its store deleted before the restart. Every
 * observer must end with every line exactly once, in order, with no sequence hole, and a late
 * reader must find the whole log.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats, defaultFrameStreamName, JetStreamFrameLog, KvMembershipStore } from '@pty-ws/adapters-nats';
import type { OutputEntry } from '@pty-ws/ports';
import { delay, joinSession, waitUntil, type TestClient } from '@pty-ws/testkit';
import { sequenceReport, since, useFaultCluster, type FaultCluster } from './support/cluster';
import { OwnNatsServer, waitJetStreamReady } from './support/nats-server';

jest.setTimeout(240_000);

let nodes: OwnNatsServer[] = [];
/** Directories of the tests' stop files, removed after the file's tests. */
const scratchDirs: string[] = [];
afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});
const natsUrl = (): string => nodes.map((n) => n.url).join(',');
const fc = useFaultCluster(
  { jetstreamReplicas: 3 },
  {
    setup: async () => {
      nodes = await OwnNatsServer.startCluster(3);
      const nc = await connectNats(natsUrl(), 'nats-cluster test setup');
      try {
        await waitJetStreamReady(nc);
      } finally {
        await nc.close();
      }
      return { natsUrl: natsUrl() };
    },
    teardown: async () => {
      await Promise.all(nodes.map((n) => n.dispose()));
    },
  },
);

interface StreamCluster {
  leader?: string;
  replicas?: { name: string; current: boolean; offline?: boolean }[];
}

async function streamCluster(jsm: JetStreamManager, stream: string): Promise<StreamCluster> {
  return ((await jsm.streams.info(stream)).cluster ?? {}) as StreamCluster;
}

/** Leader elected and both other replicas caught up: the stream can lose any one node again. */
async function waitReplicated(jsm: JetStreamManager, stream: string): Promise<StreamCluster> {
  return waitUntil(
    async () => {
      const c = await streamCluster(jsm, stream).catch(() => undefined);
      const ok = c?.leader && c.replicas?.length === 2 && c.replicas.every((r) => r.current && !r.offline);
      return ok ? c : undefined;
    },
    60_000,
    `stream ${stream} led and fully replicated`,
    200,
  );
}

function node(name: string | undefined): OwnNatsServer {
  const found = nodes.find((n) => n.serverName === name);
  if (!found) throw new Error(`no nats-server named ${name}`);
  return found;
}

function outputEntry(seq: number): OutputEntry {
  const id = `00000000-0000-7000-8000-${String(seq).padStart(12, '0')}`;
  return { type: 'output', seq, id, ts: Date.now(), stream: 'stdout', data: new TextEncoder().encode(`out ${seq}\n`) };
}

/** Line numbers of `line_<n>` in what the client received. */
function linesOf(c: TestClient): number[] {
  return [
    ...c
      .outputSince(0)
      .toString('utf8')
      .matchAll(/line_(\d+)\r?\n/g),
  ].map((m) => Number(m[1]));
}

const lastLine = (c: TestClient): number => linesOf(c).at(-1) ?? 0;

interface Streaming {
  sessionId: string;
  /** The controller (edge A) and the observers on edges A and B. */
  clients: TestClient[];
  stopFile: string;
}

/** A shell printing `line_<n>` every ~20 ms until the stop file appears, then `stream_end_<n>`. */
async function startStreaming(f: FaultCluster): Promise<Streaming> {
  const [edgeA, edgeB] = f.cluster.edges as [(typeof f.cluster.edges)[0], (typeof f.cluster.edges)[0]];
  const sessionId = await f.createShell(edgeA);
  const typist = await f.attach(edgeA, sessionId);
  await joinSession(typist, { role: 'controller' });
  const watchers: TestClient[] = [];
  for (const edge of [edgeA, edgeB]) {
    const w = await f.attach(edge, sessionId);
    await joinSession(w, { role: 'observer' });
    watchers.push(w);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'ptyws-nats-cluster-'));
  scratchDirs.push(dir);
  const stopFile = path.join(dir, 'stop');
  typist.input(`i=0; while [ ! -e ${stopFile} ]; do i=$((i+1)); echo line_$i; sleep 0.02; done; echo stream_end_$i\n`);
  const clients = [typist, ...watchers];
  for (const c of clients) await waitUntil(() => lastLine(c) >= 20, 10_000, 'the first lines');
  return { sessionId, clients, stopFile };
}

/**
 * Kills `victim` (SIGKILL), optionally wipes its store, waits until every client gets lines
 * printed after the kill, restarts it and waits until the stream is whole on three nodes again.
 * Returns the time from the kill until every client had a new line.
 */
async function killAndRestart(
  f: FaultCluster,
  jsm: JetStreamManager,
  stream: string,
  s: Streaming,
  victim: OwnNatsServer,
  label: string,
  wipe = false,
): Promise<number> {
  const before = Math.max(...s.clients.map(lastLine));
  const leader = (await streamCluster(jsm, stream)).leader;
  const killedAt = Date.now();
  await victim.stop('SIGKILL');
  if (wipe) victim.wipeStore();
  const stallMs = await longestStall(s.clients, killedAt, before + RESUMED_LINES).catch((err: Error) => {
    throw new Error(`${err.message} after killing ${label}\n${f.logs()}`);
  });
  await victim.start();
  const after = await waitReplicated(jsm, stream);
  process.stdout.write(
    `nats-cluster(${label}): killed ${victim.serverName} (leader ${leader}) at line ${before}; output stalled for at most ${stallMs} ms; ` +
      `node back and caught up ${since(killedAt)} ms after the kill (leader now ${after.leader})\n`,
  );
  return stallMs;
}

/** Lines printed after a kill that show output really flows again (~2.5 s of output, more than could be in flight). */
const RESUMED_LINES = 100;

/**
 * Watches the clients from `from` until each has line `until`; returns the longest time any of
 * them went without a new line: how long output stopped.
 */
async function longestStall(clients: TestClient[], from: number, until: number): Promise<number> {
  const seen = clients.map(lastLine);
  const advancedAt = clients.map(() => from);
  let longest = 0;
  const deadline = from + 60_000;
  while (clients.some((c) => lastLine(c) < until)) {
    if (Date.now() > deadline) {
      throw new Error(`no line ${until} within 60 s (clients at ${clients.map(lastLine).join(', ')})`);
    }
    await delay(20);
    const now = Date.now();
    clients.forEach((c, i) => {
      const line = lastLine(c);
      if (line === seen[i]) return;
      longest = Math.max(longest, now - advancedAt[i]!);
      seen[i] = line;
      advancedAt[i] = now;
    });
  }
  return longest;
}

/** Asks the stream's leader to step down until `wanted` holds of the leader's name. */
async function moveLeader(
  nc: NatsConnection,
  jsm: JetStreamManager,
  stream: string,
  wanted: (leader: string | undefined) => boolean,
): Promise<void> {
  for (let attempt = 1; !wanted((await waitReplicated(jsm, stream)).leader); attempt++) {
    if (attempt > 10) throw new Error(`the leader of ${stream} would not move`);
    // An answer that is an error, or none, is seen in the next round's leader.
    await nc.request(`$JS.API.STREAM.LEADER.STEPDOWN.${stream}`, undefined, { timeout: 5000 }).catch(() => undefined);
  }
}

/** The node the JetStream meta leader runs on. */
async function metaLeaderNode(): Promise<OwnNatsServer> {
  const name = await waitUntil(
    async () => (await Promise.all(nodes.map((n) => n.metaLeader().catch(() => undefined)))).find((l) => l),
    30_000,
    'a JetStream meta leader',
  );
  return node(name);
}

/** The node holding the agent's frame-log append connection. */
async function agentAppendNode(f: FaultCluster): Promise<OwnNatsServer> {
  const name = `agent-${f.cluster.agents[0]!.agentId} (frame log appends)`;
  return waitUntil(
    async () => {
      for (const n of nodes) if ((await n.clientNames()).includes(name)) return n;
      return undefined;
    },
    10_000,
    `the node of '${name}'`,
  );
}

describe('a 3-node NATS JetStream cluster with 3 replicas', () => {
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  beforeAll(async () => {
    nc = await connectNats(natsUrl(), 'nats-cluster test');
    jsm = await jetstreamManager(nc);
  });
  afterAll(async () => {
    await nc?.close();
  });

  it('keeps the frame log and the membership bucket on all three nodes', async () => {
    const prefix = fc().cluster.natsPrefix;
    const frames = await jsm.streams.info(defaultFrameStreamName(prefix));
    const members = await jsm.streams.info(`KV_${prefix}_membership`);
    for (const info of [frames, members]) {
      expect(info.config.num_replicas).toBe(3);
      expect(info.cluster?.replicas).toHaveLength(2);
    }
  });

  it('moves an existing single-replica stream and bucket to 3 replicas at start', async () => {
    const stream = `PTYWS_FRAMES_R1_${process.pid}`;
    const bucket = `ptyws_r1_${process.pid}_membership`;
    try {
      await (await JetStreamFrameLog.open(nc, { prefix: `r1${process.pid}`, stream })).close();
      await KvMembershipStore.open(nc, { bucket });
      expect((await jsm.streams.info(stream)).config.num_replicas).toBe(1);
      await (await JetStreamFrameLog.open(nc, { prefix: `r1${process.pid}`, stream, replicas: 3 })).close();
      await KvMembershipStore.open(nc, { bucket, replicas: 3 });
      for (const name of [stream, `KV_${bucket}`]) {
        expect((await jsm.streams.info(name)).config.num_replicas).toBe(3);
        await waitReplicated(jsm, name);
      }
    } finally {
      for (const name of [stream, `KV_${bucket}`]) await jsm.streams.delete(name).catch(() => undefined);
    }
  });

  it('refuses more replicas than the cluster has nodes, naming the setting that asks for them', async () => {
    const stream = `PTYWS_FRAMES_R5_${process.pid}`;
    const bucket = `ptyws_r5_${process.pid}_membership`;
    const prefix = `r5${process.pid}`;
    try {
      await expect(JetStreamFrameLog.open(nc, { prefix, stream, replicas: 5 })).rejects.toThrow(
        /creating it with 5 replicas, PTYWS_JETSTREAM_REPLICAS, needs 5 JetStream servers/,
      );
      await expect(KvMembershipStore.open(nc, { bucket, replicas: 5 })).rejects.toThrow(
        /creating it with 5 replicas, PTYWS_JETSTREAM_REPLICAS/,
      );
      await (await JetStreamFrameLog.open(nc, { prefix, stream })).close();
      await expect(JetStreamFrameLog.open(nc, { prefix, stream, replicas: 5 })).rejects.toThrow(
        new RegExp(`has 1 replica\\(s\\) and PTYWS_JETSTREAM_REPLICAS asks for 5, but moving it failed .*--replicas 5`),
      );
      expect((await jsm.streams.info(stream)).config.num_replicas).toBe(1);
    } finally {
      for (const name of [stream, `KV_${bucket}`]) await jsm.streams.delete(name).catch(() => undefined);
    }
  });

  it('reads a short range while the JetStream meta leader is gone (direct gets, no consumer)', async () => {
    const stream = `PTYWS_FRAMES_META_${process.pid}`;
    const victim = await metaLeaderNode();
    // The reader is on the other nodes: a request written to the dying node's socket is lost anyway.
    const others = nodes.filter((n) => n !== victim).map((n) => n.url);
    const readerNc = await connectNats(others.join(','), 'nats-cluster test reader');
    const log = await JetStreamFrameLog.open(readerNc, { prefix: `meta${process.pid}`, stream, replicas: 3 });
    try {
      for (let seq = 1; seq <= 10; seq++) await log.append('s', outputEntry(seq));
      await moveLeader(nc, jsm, stream, (leader) => leader !== victim.serverName);
      await victim.stop('SIGKILL');
      try {
        // A consumer would be created by the meta leader: until another is elected, no answer.
        expect((await log.read('s', 2, { toSeq: 9 })).map((e) => e.seq)).toEqual([3, 4, 5, 6, 7, 8, 9]);
      } finally {
        await victim.start();
      }
      await waitReplicated(jsm, stream);
    } finally {
      await log.close();
      await jsm.streams.delete(stream).catch(() => undefined);
      await readerNc.close();
    }
  });

  it('loses no line and no sequence when each node in turn is killed and restarted', async () => {
    const f = fc();
    const stream = defaultFrameStreamName(f.cluster.natsPrefix);
    await waitReplicated(jsm, stream);
    const s = await startStreaming(f);
    const resume: Record<string, number> = {};
    try {
      // The case: the node the agent writes through, holding no leadership of the stream.
      const appendNode = await agentAppendNode(f);
      await moveLeader(nc, jsm, stream, (leader) => leader !== appendNode.serverName);
      resume["the agent's node"] = await killAndRestart(f, jsm, stream, s, appendNode, "the agent's node");
      // JetStream's meta leader (not the stream's): requests that create consumers wait for the next one.
      const meta = await metaLeaderNode();
      await moveLeader(nc, jsm, stream, (leader) => leader !== meta.serverName);
      resume['meta leader'] = await killAndRestart(f, jsm, stream, s, meta, 'meta leader');
      const leader = (await waitReplicated(jsm, stream)).leader;
      resume['stream leader'] = await killAndRestart(f, jsm, stream, s, node(leader), 'stream leader');
      const followers = (await waitReplicated(jsm, stream)).replicas!.map((r) => node(r.name));
      const nowAppending = await agentAppendNode(f);
      const follower = followers.find((n) => n !== nowAppending) ?? followers[0]!;
      resume['follower'] = await killAndRestart(f, jsm, stream, s, follower, 'follower');
      const wiped = node((await waitReplicated(jsm, stream)).leader);
      resume['leader, store wiped'] = await killAndRestart(f, jsm, stream, s, wiped, 'leader, store wiped', true);
      // The node rebuilt from nothing leads from here on: what it copied back is the log now.
      await moveLeader(nc, jsm, stream, (leader) => leader === wiped.serverName);
      const atMove = Math.max(...s.clients.map(lastLine));
      await waitUntil(
        () => s.clients.every((c) => lastLine(c) > atMove + 20),
        30_000,
        'lines under the rebuilt leader',
      );
    } finally {
      writeFileSync(s.stopFile, '');
    }
    process.stdout.write(`nats-cluster: longest output stall per fault (ms): ${JSON.stringify(resume)}\n`);

    const end = await s.clients[0]!.collectOutput(/stream_end_(\d+)/, 10_000);
    const total = Number(/stream_end_(\d+)/.exec(end)![1]);
    const every = Array.from({ length: total }, (_, i) => i + 1);
    for (const c of s.clients) {
      await c.collectOutput(/stream_end_\d+/, 10_000);
      expect(sequenceReport(c.frames).problems).toEqual([]);
      expect(linesOf(c)).toEqual(every);
    }

    // The whole log, from a reader that was not there: also through the node rebuilt from nothing.
    const reader = await f.attach(f.cluster.edges[1]!, s.sessionId);
    const flush = await joinSession(reader, { role: 'observer' }, { replayFrom: 0, timeoutMs: 15_000 });
    await reader.collectOutput(/stream_end_\d+/, 15_000);
    const { seqs, problems } = sequenceReport(reader.frames, flush.from);
    expect(problems).toEqual([]);
    expect(seqs[0]).toBe(1);
    expect(linesOf(reader)).toEqual(every);
    process.stdout.write(
      `nats-cluster: ${total} lines, log of ${seqs.at(-1)} sequences, read whole by a late reader\n`,
    );
  });
});
