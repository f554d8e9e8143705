import type { PushAuthentication } from './push-configs';

/** One push notification waiting to be delivered: where it goes and the exact body to POST. */
export interface PushOutboxEntry {
  /** Assigned by the outbox; opaque to callers. */
  id: string;
  /** Who delivers it: the agent id. A restarted agent resumes the entries it owned. */
  owner: string;
  taskId: string;
  configId: string;
  url: string;
  token?: string;
  authentication?: PushAuthentication;
  /** The JSON text POSTed (one stream event). */
  body: string;
  createdAt: number;
}

export type NewPushOutboxEntry = Omit<PushOutboxEntry, 'id'>;

/**
 * Durable queue of push notifications, so delivery is at-least-once across agent restarts:
 * the deliverer `add`s a notification before its first attempt and `remove`s it after the
 * receiver accepted it or it was given up on; at start an agent `pending`s its own entries and
 * delivers them again.
 *
 * Guarantees: an entry is durable once `add` resolves; `pending(owner)` returns that owner's
 * entries in the order their `add`s resolved (adds a caller issues one after another keep their
 * order); `remove` is idempotent. Entries are never changed in place.
 */
export interface PushOutbox {
  add(entry: NewPushOutboxEntry): Promise<string>;
  remove(id: string): Promise<void>;
  pending(owner: string): Promise<PushOutboxEntry[]>;
}
