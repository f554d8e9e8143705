import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats } from '../src';

/** CI's .ci/run starts nats-server with JetStream here; override for another server. */
export const NATS_URL = process.env.PTYWS_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * Names unique to one test run, so runs (and parallel jest workers) never share a stream,
 * a bucket or a subject space on the shared server.
 */
export function runNames(): { prefix: string; stream: string; bucket: string } {
  const suffix = randomBytes(6).toString('hex');
  return {
    prefix: `ptyws_test_${suffix}`,
    stream: `PTYWS_FRAMES_TEST_${suffix}`,
    bucket: `ptyws_membership_test_${suffix}`,
  };
}

export async function connectForTest(): Promise<NatsConnection> {
  return connectNats(NATS_URL, 'pty-ws adapters-nats tests');
}

/** Deletes what a run created (a KV bucket is the stream KV_<bucket>), then closes. */
export async function dropAndClose(nc: NatsConnection, streams: string[]): Promise<void> {
  const jsm = await jetstreamManager(nc);
  for (const s of streams) {
    try {
      await jsm.streams.delete(s);
    } catch {
      // Never created (a failed setup): nothing to clean.
    }
  }
  await nc.close();
}
