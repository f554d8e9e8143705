import { StorageType } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Member, MembershipStore } from '@pty-ws/ports';
import { decodeMembers, encodeMembers } from './members';
import { ensureBucket } from './setup';
import { sessionToken } from './subjects';

export interface KvMembershipStoreOptions {
  /** KV bucket name (default `ptyws_membership`). */
  bucket?: string;
  /** Default `file`, so a restarted owner finds its members. */
  storage?: 'file' | 'memory';
  /** Bucket replicas on a clustered NATS (default 1); an existing bucket is moved to this count. */
  replicas?: number;
}

/**
 * MembershipStore on a JetStream KV bucket: one key per session (the session id, encoded as in
 * subjects.ts), value the JSON member list. The owner is the single writer per session, so a plain
 * put (last write wins) is enough; history is 1. `remove` purges the key, which leaves one small
 * purge marker per removed session until `kv.purgeDeletes()` runs.
 */
export class KvMembershipStore implements MembershipStore {
  private constructor(private readonly kv: KV) {}

  static async open(nc: NatsConnection, options: KvMembershipStoreOptions = {}): Promise<KvMembershipStore> {
    const kv = await ensureBucket(nc, options.bucket ?? 'ptyws_membership', {
      storage: options.storage === 'memory' ? StorageType.Memory : StorageType.File,
      replicas: options.replicas ?? 1,
    });
    return new KvMembershipStore(kv);
  }

  async save(sessionId: string, members: Member[]): Promise<void> {
    await this.kv.put(sessionToken(sessionId), encodeMembers(members));
  }

  /** An unknown (or removed) session has no members. */
  async load(sessionId: string): Promise<Member[]> {
    const key = sessionToken(sessionId);
    const entry = await this.kv.get(key);
    if (!entry || entry.operation !== 'PUT') return [];
    return decodeMembers(entry.value, sessionId);
  }

  async remove(sessionId: string): Promise<void> {
    await this.kv.purge(sessionToken(sessionId));
  }
}
