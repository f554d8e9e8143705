import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  type StreamConfig,
  type StreamInfo,
} from '@nats-io/jetstream';
import { Kvm, type KV, type KvOptions } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';

/** The fields `ensureStream` owns: what the adapter's correctness depends on. */
export type OwnedStreamConfig = Pick<StreamConfig, 'name' | 'subjects' | 'allow_direct'> &
  Partial<Pick<StreamConfig, 'republish' | 'storage' | 'num_replicas' | 'discard' | 'retention'>>;

/**
 * Creates the stream, or brings an existing one's subjects, direct access and republish in line
 * (every process of a deployment calls this at start; the first creates, the rest find it).
 * Storage and replicas are only set on creation: the server refuses to change them.
 */
export async function ensureStream(jsm: JetStreamManager, config: OwnedStreamConfig): Promise<StreamInfo> {
  try {
    const existing = await infoOrUndefined(jsm, config.name);
    if (!existing) {
      try {
        return await jsm.streams.add(config);
      } catch (error) {
        // Another process created it between our info and add: fall through to the update check.
        const raced = await infoOrUndefined(jsm, config.name);
        if (!raced) throw error;
        return await reconcile(jsm, raced, config);
      }
    }
    return await reconcile(jsm, existing, config);
  } catch (error) {
    throw new Error(`cannot set up JetStream stream '${config.name}': ${(error as Error).message}`, { cause: error });
  }
}

async function reconcile(jsm: JetStreamManager, info: StreamInfo, want: OwnedStreamConfig): Promise<StreamInfo> {
  const have = info.config;
  const same =
    sameSet(have.subjects ?? [], want.subjects) &&
    have.allow_direct === want.allow_direct &&
    have.republish?.src === want.republish?.src &&
    have.republish?.dest === want.republish?.dest;
  if (same) return info;
  return jsm.streams.update(want.name, {
    ...have,
    subjects: want.subjects,
    allow_direct: want.allow_direct,
    republish: want.republish,
  });
}

async function infoOrUndefined(jsm: JetStreamManager, name: string): Promise<StreamInfo | undefined> {
  try {
    return await jsm.streams.info(name);
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) return undefined;
    throw error;
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** Opens the KV bucket, creating it on first use (the client's `create` opens an existing bucket). */
export async function ensureBucket(nc: NatsConnection, bucket: string, options: Partial<KvOptions> = {}): Promise<KV> {
  try {
    return await new Kvm(nc).create(bucket, { history: 1, ...options });
  } catch (error) {
    throw new Error(`cannot set up JetStream KV bucket '${bucket}': ${(error as Error).message}`, { cause: error });
  }
}
