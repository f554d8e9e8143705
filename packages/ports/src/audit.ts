/**
 * The security audit trail: who attached to which session with which role and scopes, who typed
 * (how much, never what), who resized, who changed roles, who minted and revoked tokens, who sent
 * and canceled A2A tasks and set or deleted their push-notification configs, who read transcripts.
 */

/** What happened. `attach` of an observer is also a disclosure (extension "Security notes"). */
export const AUDIT_EVENT_TYPES = [
  'attach',
  'detach',
  'role_change',
  'input',
  'resize',
  'token_create',
  'token_revoke',
  'session_create',
  'session_kill',
  'task_send',
  'task_cancel',
  'push_config_set',
  'push_config_delete',
  'transcript_read',
  'session_log_cut',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

export interface AuditEvent {
  /** Epoch milliseconds when it happened (for `input`: the end of the aggregation window). */
  at: number;
  type: AuditEventType;
  instanceId: string;
  /** The principal that acted: `token:<id>`, `cert:<subject>`, `anonymous`. */
  principal: string;
  sessionId?: string;
  /** The connection (client id) it happened on. */
  clientId?: string;
  /** The edge that saw it. */
  edgeId?: string;
  /**
   * Session output was disclosed to a principal that cannot steer the session: every observer
   * attach. Auditors filter on this to answer "who could read this terminal".
   */
  disclosure: boolean;
  /** Type-specific facts (role, scopes, source address, byte counts…); never terminal bytes or tokens. */
  detail: Record<string, unknown>;
}

/** A stored event: `id` orders events of one store (a file line number, a table identity). */
export interface StoredAuditEvent extends AuditEvent {
  id: number;
}

export interface AuditQuery {
  instanceId: string;
  sessionId?: string;
  principal?: string;
  /** Events at or after this epoch-millisecond time. */
  since?: number;
  /** Events with an id above this (paging: pass the last id received). */
  afterId?: number;
  /** At most this many, oldest first. */
  limit: number;
}

/**
 * Where audit events go. `record` is called on the hot path (attach, input): it only queues and
 * returns at once, never throws and never waits for I/O; events are written asynchronously in
 * batches, in the order recorded. A sink that cannot keep up drops the oldest queued events and
 * reports how many (a full disk must not stall terminals); `flush` waits until everything recorded
 * before it was written (or dropped).
 */
export interface AuditLog {
  record(event: AuditEvent): void;
  flush(): Promise<void>;
  /** Events matching the query, oldest first. Sinks that cannot be read back throw UnsupportedAuditQuery. */
  query(q: AuditQuery): Promise<StoredAuditEvent[]>;
  /** Flushes, then releases the file or connection. */
  close(): Promise<void>;
}

export class UnsupportedAuditQuery extends Error {
  override readonly name = 'UnsupportedAuditQuery';
}

/** Discards everything (PTYWS_AUDIT_LOG=off, and unit harnesses). */
export const NO_AUDIT: AuditLog = {
  record: () => undefined,
  flush: () => Promise.resolve(),
  query: () => Promise.reject(new UnsupportedAuditQuery('the audit log is off (PTYWS_AUDIT_LOG=off)')),
  close: () => Promise.resolve(),
};
