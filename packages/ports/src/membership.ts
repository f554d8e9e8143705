import type { ClientRef, PtyRole } from '@pty-ws/protocol';

export interface Member {
  clientId: string;
  label?: string;
  role: PtyRole;
  /** The edge holding the connection: its death releases the member's role. */
  edgeId: string;
  principalId: string;
  joinedAt: number;
}

export interface MembershipSnapshot {
  controllers: ClientRef[];
  observers: ClientRef[];
}

/**
 * Persists each session's membership as its owner changes it, so a restarted owner and the
 * admin API see who is attached. The owner is the single writer per session; `save` replaces.
 */
export interface MembershipStore {
  save(sessionId: string, members: Member[]): Promise<void>;
  load(sessionId: string): Promise<Member[]>;
  remove(sessionId: string): Promise<void>;
}
