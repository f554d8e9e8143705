/**
 * A server list reaches the client as a list, and replicas the server cannot keep are refused at
 * start. (Moving streams between replica counts needs a NATS cluster: tests/cluster-faults.)
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats, JetStreamFrameLog, KvMembershipStore, natsServers } from '../src';
import { connectForTest, dropAndClose, NATS_URL, runNames } from './nats-fixture';

/** Nothing listens on port 1. */
const DEAD = 'nats://127.0.0.1:1';

describe('connectNats with several servers', () => {
  it('splits a comma-separated list into its servers', () => {
    expect(natsServers(' nats://a:4222, nats://b:4222,,nats://c:4222 ')).toEqual([
      'nats://a:4222',
      'nats://b:4222',
      'nats://c:4222',
    ]);
  });

  it.each([
    ['first', `${NATS_URL},${DEAD}`],
    ['last', `${DEAD},${NATS_URL}`],
  ])('connects when only the %s server of the list is up, even without reconnecting', async (_label, list) => {
    const nc = await connectNats(list, 'server list probe', { reconnect: false, timeout: 2000 });
    try {
      expect(nc.getServer()).toBe(NATS_URL.replace(/^nats:\/\//, ''));
    } finally {
      await nc.close();
    }
  });

  it('names every server of the list when none answers', async () => {
    const attempt = connectNats(`${DEAD},nats://u:secret@127.0.0.1:2`, 'probe', { timeout: 1000 });
    await expect(attempt).rejects.toThrow(/cannot connect to NATS at nats:\/\/127\.0\.0\.1:1,nats:\/\/127\.0\.0\.1:2 /);
    await expect(attempt).rejects.not.toThrow(/secret/);
  });
});

describe('replicas on a server that is not clustered', () => {
  const names = runNames();
  let nc: NatsConnection;

  beforeAll(async () => {
    nc = await connectForTest();
  });
  afterAll(async () => {
    await dropAndClose(nc, [names.stream, `KV_${names.bucket}`]);
  });

  it('refuses a frame log with 3 replicas, saying how to fix it, and creates nothing', async () => {
    const open = JetStreamFrameLog.open(nc, { prefix: names.prefix, stream: names.stream, replicas: 3 });
    await expect(open).rejects.toThrow(
      new RegExp(
        `stream '${names.stream}' with 3 replicas: NATS server '.*' is not part of a cluster.*PTYWS_JETSTREAM_REPLICAS=1`,
      ),
    );
    const jsm = await jetstreamManager(nc);
    await expect(jsm.streams.info(names.stream)).rejects.toThrow(/stream not found/);
  });

  it('refuses to move an existing single-replica log to 3 (the server would accept it and keep one copy)', async () => {
    const log = await JetStreamFrameLog.open(nc, { prefix: names.prefix, stream: names.stream });
    await log.close();
    await expect(
      JetStreamFrameLog.open(nc, { prefix: names.prefix, stream: names.stream, replicas: 3 }),
    ).rejects.toThrow(/not part of a cluster/);
    const jsm = await jetstreamManager(nc);
    expect((await jsm.streams.info(names.stream)).config.num_replicas).toBe(1);
  });

  it('refuses a membership bucket with 3 replicas', async () => {
    await expect(KvMembershipStore.open(nc, { bucket: names.bucket, replicas: 3 })).rejects.toThrow(
      new RegExp(`KV bucket '${names.bucket}' with 3 replicas: .*not part of a cluster`),
    );
  });
});
