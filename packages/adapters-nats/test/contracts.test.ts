import { afterAll, beforeAll } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { frameLogContract, membershipStoreContract } from '@pty-ws/testkit/contracts';
import { JetStreamFrameLog, KvMembershipStore } from '../src';
import { connectForTest, dropAndClose, runNames } from './nats-fixture';

// One connection, stream and bucket for the whole file; the suites give every test its own session ids.
const names = runNames();
let nc: NatsConnection;
let log: JetStreamFrameLog;
let members: KvMembershipStore;

beforeAll(async () => {
  nc = await connectForTest();
  // The contract's throwing-subscriber case is expected; keep it out of the test output.
  log = await JetStreamFrameLog.open(nc, { prefix: names.prefix, stream: names.stream, onSubscriberError: () => {} });
  members = await KvMembershipStore.open(nc, { bucket: names.bucket });
});

afterAll(async () => {
  await dropAndClose(nc, [names.stream, `KV_${names.bucket}`]);
});

const noCleanup = async (): Promise<void> => {};

frameLogContract('NATS JetStream', async () => ({ log, cleanup: noCleanup }));
membershipStoreContract('NATS KV', async () => ({ store: members, cleanup: noCleanup }));
