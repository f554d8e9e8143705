import { BindingError, type Scope } from '@pty-ws/protocol';
import { canControl, canObserve, isAdmin, type Principal } from '../auth';

/**
 * The binding rules of admin tokens (binding §7.2): a `pty:admin` token bound to an instance acts
 * on that instance only, one bound to a session sees, kills and mints for that session only, and
 * whatever it mints is never broader than itself (scopes, instance, session, lifetime). REST and
 * gRPC AdminService both go through AdminOperations, which asks these.
 */

/** A token bound to another instance may not administer this one (whatever the request names). */
export function checkInstanceBinding(principal: Principal, instanceId: string): void {
  if (principal.instanceId !== undefined && principal.instanceId !== instanceId)
    throw new BindingError('PERMISSION_DENIED', `the token belongs to instance '${principal.instanceId}'`);
}

/** Whether a session-bound admin may see this session (an unbound one sees every session). */
export function sessionInBinding(principal: Principal, sessionId: string): boolean {
  return principal.sessionId === undefined || principal.sessionId === sessionId;
}

/** A session-bound token cannot create sessions: the new one would lie outside its binding. */
export function checkMayCreateSessions(principal: Principal): void {
  if (principal.sessionId !== undefined)
    throw new BindingError('PERMISSION_DENIED', 'a session-bound token cannot create sessions');
}

/** A token a session-bound admin may list or revoke: only those bound to the same session. */
export function tokenInBinding(principal: Principal, token: { sessionId?: string }): boolean {
  return principal.sessionId === undefined || token.sessionId === principal.sessionId;
}

export interface MintRequest {
  scopes: readonly Scope[];
  sessionId?: string;
  /** Epoch ms; undefined: never expires. */
  expiresAt?: number;
}

/**
 * What the minter may hand out: its own scopes at most, its session binding (filled in when the
 * request names none), and an expiry no later than its own (filled in likewise). A request for
 * more is refused rather than silently narrowed, except for the defaults.
 */
export function narrowMint(minter: Principal, req: MintRequest): { sessionId?: string; expiresAt?: number } {
  const extra = req.scopes.filter((s) => !covers(minter, s));
  if (extra.length > 0)
    throw new BindingError('PERMISSION_DENIED', `cannot mint scopes the caller lacks: ${extra.join(', ')}`);
  const sessionId = req.sessionId ?? minter.sessionId;
  if (minter.sessionId !== undefined && sessionId !== minter.sessionId)
    throw new BindingError('PERMISSION_DENIED', 'a session-bound token can mint tokens for its own session only');
  const expiresAt = req.expiresAt ?? minter.expiresAt;
  if (minter.expiresAt !== undefined && expiresAt !== undefined && expiresAt > minter.expiresAt)
    throw new BindingError('PERMISSION_DENIED', 'cannot mint a token that outlives the caller’s own token');
  return { ...(sessionId !== undefined ? { sessionId } : {}), ...(expiresAt !== undefined ? { expiresAt } : {}) };
}

/** pty:admin implies pty:control, which implies pty:observe (binding §7.2). */
function covers(p: Principal, scope: Scope): boolean {
  return scope === 'pty:admin' ? isAdmin(p) : scope === 'pty:control' ? canControl(p) : canObserve(p);
}
