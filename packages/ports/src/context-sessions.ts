/**
 * An A2A context bound to the session its messages run in: a client that names no session gets
 * one created for its `contextId` (A2A core, context-sessions.ts), shared by every edge.
 */
export interface ContextSessionRecord {
  instanceId: string;
  contextId: string;
  sessionId: string;
  /** The principal whose message bound the context. */
  principalId: string;
  createdAt: number;
  /** The context's last message (epoch ms): the session's idle time counts from here. */
  lastUsedAt: number;
}

/**
 * Bindings of contexts to sessions, one per `(instanceId, contextId)`. `claim` is atomic: of two
 * claims of one unbound context exactly one binds it and both are told the binding that holds.
 * `touch` only moves `lastUsedAt` forward and only for the binding to that session; `release`
 * removes a binding only while it is to that session and unused since `lastUsedAt` (a message
 * that touched it meanwhile keeps it).
 */
export interface ContextSessionStore {
  claim(record: ContextSessionRecord): Promise<{ record: ContextSessionRecord; claimed: boolean }>;
  get(instanceId: string, contextId: string): Promise<ContextSessionRecord | undefined>;
  /** False when the context is not (or no longer) bound to `sessionId`. */
  touch(instanceId: string, contextId: string, sessionId: string, at: number): Promise<boolean>;
  /** Bindings last used before `before`, least recently used first, at most `limit`. */
  idle(before: number, limit: number): Promise<ContextSessionRecord[]>;
  release(instanceId: string, contextId: string, sessionId: string, lastUsedAt: number): Promise<boolean>;
}
