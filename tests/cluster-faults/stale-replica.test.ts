/**
 * The frame log on a 3-node JetStream cluster, R3, where a replica that is behind answers the
 * direct gets for a subject's newest message. nats-server lets every replica of a stream with
 * `allow_direct` answer direct gets from its own store, and a follower that is behind (or
 * rebuilding a wiped store) gives an older newest message. The connection here answers those
 * gets as such a replica would (frozen at a past head), deterministically: the log must take
 * its writer's head and its bounds from the stream's leader, and read a range whole.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import type { Msg, NatsConnection, PublishOptions, RequestOptions } from '@nats-io/transport-node';
import { connectNats, JetStreamFrameLog, sessionToken } from '@pty-ws/adapters-nats';
import type { OutputEntry } from '@pty-ws/ports';
import { OwnNatsServer, waitJetStreamReady } from './support/nats-server';

jest.setTimeout(120_000);

let nodes: OwnNatsServer[] = [];
let nc: NatsConnection;

beforeAll(async () => {
  nodes = await OwnNatsServer.startCluster(3);
  nc = await connectNats(nodes.map((n) => n.url).join(','), 'stale-replica test');
  await waitJetStreamReady(nc);
});
afterAll(async () => {
  await nc?.close();
  await Promise.all(nodes.map((n) => n.dispose()));
});

/**
 * `nc` as seen through a replica that stopped applying a subject's messages at `freeze`: its
 * direct gets for the subject's newest message answer what that was then (every other request
 * goes through untouched, and any replica may answer direct gets anyway). `staleLeader(subject,
 * n)`: the next `n` leader gets of the subject's newest message answer the frozen one too.
 */
function behindReplica(real: NatsConnection): {
  nc: NatsConnection;
  freeze: (stream: string, subject: string) => Promise<void>;
  staleLeader: (subject: string, reads: number) => void;
} {
  const frozen = new Map<string, Msg>();
  const staleLeaderReads = new Map<string, number>();
  const request = (subject: string, payload?: Uint8Array | string, options?: RequestOptions): Promise<Msg> => {
    if (subject.startsWith('$JS.API.STREAM.MSG.GET.') && payload instanceof Uint8Array) {
      const query = JSON.parse(new TextDecoder().decode(payload)) as { last_by_subj?: string };
      const stale = query.last_by_subj ? frozen.get(query.last_by_subj) : undefined;
      const left = query.last_by_subj ? (staleLeaderReads.get(query.last_by_subj) ?? 0) : 0;
      if (stale && left > 0) {
        staleLeaderReads.set(query.last_by_subj!, left - 1);
        const seq = Number(stale.headers?.get('Nats-Sequence'));
        return real.request(subject, new TextEncoder().encode(JSON.stringify({ seq })), options);
      }
    }
    return real.request(subject, payload, options);
  };
  const publish = (subject: string, payload?: Uint8Array | string, options?: PublishOptions): void => {
    if (subject.startsWith('$JS.API.DIRECT.GET.') && options?.reply && payload instanceof Uint8Array) {
      const query = JSON.parse(new TextDecoder().decode(payload)) as { last_by_subj?: string };
      const stale = query.last_by_subj ? frozen.get(query.last_by_subj) : undefined;
      if (stale) return real.publish(options.reply, stale.data, stale.headers ? { headers: stale.headers } : {});
    }
    real.publish(subject, payload, options);
  };
  const proxy = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === 'publish') return publish;
      if (prop === 'request') return request;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const freeze = async (stream: string, subject: string): Promise<void> => {
    const body = new TextEncoder().encode(JSON.stringify({ last_by_subj: subject }));
    frozen.set(subject, await real.request(`$JS.API.DIRECT.GET.${stream}`, body, { timeout: 5000 }));
  };
  return { nc: proxy, freeze, staleLeader: (subject, reads) => staleLeaderReads.set(subject, reads) };
}

function outputEntry(seq: number, id = `00000000-0000-7000-8000-${String(seq).padStart(12, '0')}`): OutputEntry {
  return { type: 'output', seq, id, ts: Date.now(), stream: 'stdout', data: new TextEncoder().encode(`out ${seq}\n`) };
}

describe('a frame log whose newest-message gets are answered by a replica that is behind', () => {
  it('appends from the leader’s head, reports the leader’s bounds and reads a range whole', async () => {
    const prefix = `stale${process.pid}`;
    const stream = `PTYWS_FRAMES_STALE_${process.pid}`;
    const replica = behindReplica(nc);
    const writer = await JetStreamFrameLog.open(replica.nc, { prefix, stream, replicas: 3 });
    const logs = [writer];
    try {
      for (let seq = 1; seq <= 3; seq++) await writer.append('s', outputEntry(seq));
      await replica.freeze(stream, `${prefix}.frames.${sessionToken('s')}`);
      await writer.append('s', outputEntry(4)); // from its cached head: no read

      // The owner once more, without a cached head (as after a failed append or a restart).
      const owner = await JetStreamFrameLog.open(replica.nc, { prefix, stream, replicas: 3 });
      logs.push(owner);
      // Its head read must not take the replica's answer (entry 3) for the log's: 5 follows 4.
      await owner.append('s', outputEntry(5));
      expect((await owner.bounds('s')).lastSeq).toBe(5);
      expect((await owner.read('s', 0, { toSeq: 5 })).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);

      // Another writer (its head not cached either) is still refused.
      const other = await JetStreamFrameLog.open(replica.nc, { prefix, stream, replicas: 3 });
      logs.push(other);
      await expect(other.append('s', outputEntry(5, '00000000-0000-7000-8000-999999999999'))).rejects.toMatchObject({
        expected: 6,
        got: 5,
      });
      expect((await other.bounds('s')).lastSeq).toBe(5);
    } finally {
      for (const log of logs) await log.close();
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete(stream).catch(() => undefined);
    }
  });

  it('reads its head again while it is behind what the writer already stored', async () => {
    const prefix = `staleld${process.pid}`;
    const stream = `PTYWS_FRAMES_STALELD_${process.pid}`;
    const subject = `${prefix}.frames.${sessionToken('s')}`;
    const replica = behindReplica(nc);
    const writer = await JetStreamFrameLog.open(replica.nc, { prefix, stream, replicas: 3 });
    try {
      for (let seq = 1; seq <= 2; seq++) await writer.append('s', outputEntry(seq));
      await replica.freeze(stream, subject);
      await writer.append('s', outputEntry(3));
      // Refused (4 is missing): the writer forgets its cached head and reads it afresh next time.
      await expect(writer.append('s', outputEntry(5))).rejects.toMatchObject({ expected: 4, got: 5 });
      // Its next head reads say 2 though it saw 3 stored: read again, not taken for a conflict.
      replica.staleLeader(subject, 2);
      await writer.append('s', outputEntry(4));
      expect((await writer.read('s', 0, { toSeq: 4 })).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    } finally {
      await writer.close();
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete(stream).catch(() => undefined);
    }
  });
});
