import {
  jetstreamManager,
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
 * Creates the stream, or brings an existing one's subjects, direct access, republish and replicas
 * in line (every process of a deployment calls this at start; the first creates, the rest find
 * it). Storage is only set on creation: the server refuses to change it. A clustered server moves
 * a stream to another replica count by itself; a single server would accept more than one replica
 * on an update without keeping any copy: check `requireClusterForReplicas` first.
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
        if (!raced) throw withReplicaAdvice(error, config.num_replicas ?? 1);
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
  const replicas = want.num_replicas ?? have.num_replicas;
  if (same && have.num_replicas === replicas) return info;
  try {
    return await jsm.streams.update(want.name, {
      ...have,
      subjects: want.subjects,
      allow_direct: want.allow_direct,
      republish: want.republish,
      num_replicas: replicas,
    });
  } catch (error) {
    if (have.num_replicas === replicas) throw error;
    throw replicaChangeError(want.name, have.num_replicas, replicas, error);
  }
}

/** A create with several replicas fails when too few JetStream servers are up: say which setting asks for them. */
function withReplicaAdvice(error: unknown, replicas: number): unknown {
  if (replicas <= 1) return error;
  return new Error(
    `${(error as Error).message} (creating it with ${replicas} replicas, PTYWS_JETSTREAM_REPLICAS, needs ${replicas} ` +
      'JetStream servers up in the cluster)',
    { cause: error },
  );
}

function replicaChangeError(stream: string, from: number, to: number, error: unknown): Error {
  return new Error(
    `it has ${from} replica(s) and PTYWS_JETSTREAM_REPLICAS asks for ${to}, but moving it failed ` +
      `(${(error as Error).message}); it needs ${to} JetStream servers up in the cluster: start them, ` +
      `set PTYWS_JETSTREAM_REPLICAS=${from}, or change it by hand (nats stream edit ${stream} --replicas ${to})`,
    { cause: error },
  );
}

/**
 * More than one replica needs a JetStream cluster: say so at start rather than fail (new
 * stream) or, worse, seem to succeed (update) on a server that keeps a single copy.
 */
export function requireClusterForReplicas(nc: NatsConnection, replicas: number, what: string): void {
  if (replicas <= 1 || nc.info?.cluster) return;
  throw new Error(
    `cannot set up ${what} with ${replicas} replicas: NATS server '${nc.info?.server_name ?? '?'}' is not part of ` +
      'a cluster (only a JetStream cluster keeps copies on other nodes); set PTYWS_JETSTREAM_REPLICAS=1 or list ' +
      'the nodes of a NATS cluster in PTYWS_NATS_URL',
  );
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

/**
 * Opens the KV bucket, creating it on first use (the client's `create` opens an existing bucket
 * as it is), then brings the replicas of an existing bucket's stream in line with `replicas`.
 */
export async function ensureBucket(nc: NatsConnection, bucket: string, options: Partial<KvOptions> = {}): Promise<KV> {
  const what = `JetStream KV bucket '${bucket}'`;
  requireClusterForReplicas(nc, options.replicas ?? 1, what);
  try {
    const kv = await new Kvm(nc)
      .create(bucket, { history: 1, ...options })
      .catch((error: unknown) => Promise.reject(withReplicaAdvice(error, options.replicas ?? 1)));
    if (options.replicas !== undefined) await ensureReplicas(nc, `KV_${bucket}`, options.replicas);
    return kv;
  } catch (error) {
    throw new Error(`cannot set up ${what}: ${(error as Error).message}`, { cause: error });
  }
}

async function ensureReplicas(nc: NatsConnection, stream: string, replicas: number): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const have = (await jsm.streams.info(stream)).config;
  if (have.num_replicas === replicas) return;
  try {
    await jsm.streams.update(stream, { ...have, num_replicas: replicas });
  } catch (error) {
    throw replicaChangeError(stream, have.num_replicas, replicas, error);
  }
}
