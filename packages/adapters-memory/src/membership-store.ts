import type { Member, MembershipStore } from '@pty-ws/ports';

/** The embedded MembershipStore: one member list per session, copied in and out. */
export class MemoryMembershipStore implements MembershipStore {
  private readonly members = new Map<string, Member[]>();

  async save(sessionId: string, members: Member[]): Promise<void> {
    this.members.set(sessionId, structuredClone(members));
  }

  /** An unknown session has no members. */
  async load(sessionId: string): Promise<Member[]> {
    return structuredClone(this.members.get(sessionId) ?? []);
  }

  async remove(sessionId: string): Promise<void> {
    this.members.delete(sessionId);
  }
}
