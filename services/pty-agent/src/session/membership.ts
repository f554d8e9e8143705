import { BindingError, type PtyRole } from '@pty-ws/protocol';
import type { Member, MembershipSnapshot, RoleGrant } from '@pty-ws/ports';

export interface Caps {
  maxControllers: number;
  maxObservers: number;
  /**
   * Observer slots one principal may hold (PTYWS_OBSERVERS_PER_PRINCIPAL), so that one token
   * cannot take every slot and lock everyone else out; admins are not held to it. Absent: no share.
   */
  maxObserversPerPrincipal?: number;
}

/**
 * A session's membership and role caps. Its owner is the single writer, so every decision here
 * is a plain synchronous check-then-set: no read-modify-write race exists to guard against.
 */
export class Membership {
  private readonly members = new Map<string, Member>();

  constructor(private readonly caps: Caps) {}

  get size(): number {
    return this.members.size;
  }

  has(clientId: string): boolean {
    return this.members.has(clientId);
  }

  roleOf(clientId: string): PtyRole | undefined {
    return this.members.get(clientId)?.role;
  }

  all(): Member[] {
    return [...this.members.values()];
  }

  /** The controllers' client ids. */
  controllerIds(): string[] {
    const ids: string[] = [];
    for (const m of this.members.values()) if (m.role === 'controller') ids.push(m.clientId);
    return ids;
  }

  /** True when no member but `clientId` is a controller. */
  isOnlyController(clientId: string): boolean {
    for (const m of this.members.values()) if (m.role === 'controller' && m.clientId !== clientId) return false;
    return true;
  }

  private count(role: PtyRole): number {
    let n = 0;
    for (const m of this.members.values()) if (m.role === role) n++;
    return n;
  }

  private countOf(role: PtyRole, principalId: string): number {
    let n = 0;
    for (const m of this.members.values()) if (m.role === role && m.principalId === principalId) n++;
    return n;
  }

  /**
   * Decides the joiner's role: requested controller if the scope and cap allow, else observer.
   * `admin`: the principal holds pty:admin and is not held to the per-principal observer share.
   */
  join(member: Omit<Member, 'role'>, requested: PtyRole, canControl: boolean, admin = false): RoleGrant {
    if (requested === 'controller' && !canControl) {
      throw new BindingError('PERMISSION_DENIED', 'the principal lacks pty:control and cannot be a controller');
    }
    let grant: RoleGrant = { role: requested, downgraded: false };
    if (requested === 'controller' && this.count('controller') >= this.caps.maxControllers) {
      grant = {
        role: 'observer',
        downgraded: true,
        reason: `controller capacity reached (max_controllers=${this.caps.maxControllers})`,
      };
    }
    if (grant.role === 'observer' && this.count('observer') >= this.caps.maxObservers) {
      throw new BindingError(
        'RATE_LIMITED',
        `session is at observer capacity (max_observers=${this.caps.maxObservers})`,
      );
    }
    const share = this.caps.maxObserversPerPrincipal;
    if (
      grant.role === 'observer' &&
      !admin &&
      share !== undefined &&
      this.countOf('observer', member.principalId) >= share
    ) {
      throw new BindingError(
        'RATE_LIMITED',
        `this principal holds its share of the session's observer slots (observers_per_principal=${share})`,
      );
    }
    // Built field by field, not spread: the spread copies each got a hidden class of their own
    // (about 200 bytes a member beside the member itself).
    const joined: Member = {
      clientId: member.clientId,
      role: grant.role,
      edgeId: member.edgeId,
      principalId: member.principalId,
      joinedAt: member.joinedAt,
    };
    if (member.label !== undefined) joined.label = member.label;
    this.members.set(member.clientId, joined);
    return grant;
  }

  /** Changes an existing member's role; returns the grant and whether anything changed. */
  setRole(clientId: string, role: PtyRole, canControl: boolean): { grant: RoleGrant; changed: boolean } {
    const member = this.members.get(clientId);
    if (!member) throw new BindingError('INVALID_REQUEST', 'join the session before changing role');
    if (role === 'controller' && !canControl) {
      throw new BindingError('PERMISSION_DENIED', 'the principal lacks pty:control and cannot be a controller');
    }
    if (member.role === role) return { grant: { role, downgraded: false }, changed: false };
    if (role === 'controller' && this.count('controller') >= this.caps.maxControllers) {
      return {
        grant: {
          role: 'observer',
          downgraded: true,
          reason: `controller capacity reached (max_controllers=${this.caps.maxControllers})`,
        },
        changed: false,
      };
    }
    member.role = role;
    return { grant: { role, downgraded: false }, changed: true };
  }

  remove(clientId: string): boolean {
    return this.members.delete(clientId);
  }

  /** Removes every member held by one edge; returns how many were removed. */
  removeEdge(edgeId: string): number {
    let n = 0;
    for (const [id, m] of this.members) {
      if (m.edgeId === edgeId) {
        this.members.delete(id);
        n++;
      }
    }
    return n;
  }

  snapshot(): MembershipSnapshot {
    const ref = (m: Member) =>
      m.label !== undefined ? { client_id: m.clientId, label: m.label } : { client_id: m.clientId };
    const ordered = [...this.members.values()].sort((a, b) => a.joinedAt - b.joinedAt);
    return {
      controllers: ordered.filter((m) => m.role === 'controller').map(ref),
      observers: ordered.filter((m) => m.role === 'observer').map(ref),
    };
  }
}
