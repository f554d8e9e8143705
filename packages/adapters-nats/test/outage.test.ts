import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { rejectionOf } from '@pty-ws/testkit';
import { isNatsOutage } from '../src';
import { connectForTest, runNames } from './nats-fixture';

describe('isNatsOutage', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connectForTest();
  });
  afterAll(async () => {
    if (!nc.isClosed()) await nc.close();
  });

  it('is true when nobody answers a request or it times out', async () => {
    const { prefix } = runNames();
    expect(isNatsOutage(await rejectionOf(() => nc.request(`${prefix}.nobody`, 'x', { timeout: 1000 })))).toBe(true);
    nc.subscribe(`${prefix}.silent`, { callback: () => undefined });
    await nc.flush();
    expect(isNatsOutage(await rejectionOf(() => nc.request(`${prefix}.silent`, 'x', { timeout: 50 })))).toBe(true);
  });

  it('is false when JetStream answers with a refusal (no such stream)', async () => {
    const jsm = await jetstreamManager(nc);
    expect(isNatsOutage(await rejectionOf(() => jsm.streams.info(runNames().stream)))).toBe(false);
  });

  it('is true once the connection is closed', async () => {
    const other = await connectForTest();
    await other.close();
    expect(isNatsOutage(await rejectionOf(() => other.request('anything', 'x', { timeout: 1000 })))).toBe(true);
  });

  it('is false for errors that are not NATS at all', () => {
    expect(isNatsOutage(new TypeError('x is undefined'))).toBe(false);
  });
});
