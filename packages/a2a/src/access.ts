import { EXTENSION_URI, type Scope } from '@pty-ws/protocol';
import type { SessionRecord, TaskRecord } from '@pty-ws/ports';
import { A2aError } from './a2a-error';
import type { CallContext } from './a2a-operations';

const has = (ctx: CallContext, ...scopes: Scope[]) => scopes.some((s) => ctx.principal.scopes.has(s));

/** Starting, cancelling, and configuring push notifications need `pty:control` (binding §7.2). */
export function requireControl(ctx: CallContext, what: string): void {
  if (!has(ctx, 'pty:control', 'pty:admin')) {
    throw new A2aError('PermissionDenied', `the principal lacks pty:control and cannot ${what}`);
  }
}

/** Task and config reads need `pty:observe` (or more). */
export function requireObserve(ctx: CallContext): void {
  if (!has(ctx, 'pty:observe', 'pty:control', 'pty:admin')) {
    throw new A2aError('PermissionDenied', 'the principal lacks pty:observe');
  }
}

/**
 * Checks the call as a whole: the token's instance is the URL's, and no extension is activated
 * that these bindings do not carry — `pty-extensions/v1` lives on pty-ws/v1 only (extension §3).
 * Other unknown extension URIs are ignored, as A2A asks of agents.
 */
export function checkCall(ctx: CallContext): void {
  const { principal } = ctx;
  if (principal.instanceId !== undefined && principal.instanceId !== ctx.instanceId) {
    throw new A2aError('PermissionDenied', `the token belongs to instance '${principal.instanceId}'`);
  }
  if (ctx.requestedExtensions?.includes(EXTENSION_URI)) {
    throw new A2aError(
      'UnsupportedExtension',
      `${EXTENSION_URI} can only be activated on the pty-ws/v1 WebSocket binding (pty-extensions §3)`,
      { extension: EXTENSION_URI },
    );
  }
}

/**
 * Whether the caller may see a task: same instance, and the session a session-bound token (or
 * the pty-ws/v1 connection) is confined to. Invisible tasks are reported as not found, so ids
 * of other instances and sessions do not leak.
 */
export function visibleTask(rec: TaskRecord | undefined, ctx: CallContext, taskId: string): TaskRecord {
  const scope = sessionScope(ctx);
  if (!rec || rec.instanceId !== ctx.instanceId || (scope !== undefined && rec.sessionId !== scope)) {
    throw new A2aError('TaskNotFound', `task ${taskId} not found`);
  }
  return rec;
}

/** The one session the call is confined to, if any. */
export function sessionScope(ctx: CallContext): string | undefined {
  return ctx.sessionScope ?? ctx.principal.sessionId;
}

/** A session a message may run in: this instance's, running, and within the caller's scope. */
export function usableSession(rec: SessionRecord | undefined, ctx: CallContext, sessionId: string): SessionRecord {
  if (!rec || rec.instanceId !== ctx.instanceId) {
    throw new A2aError('InvalidParams', `session '${sessionId}' not found in instance '${ctx.instanceId}'`);
  }
  const scope = sessionScope(ctx);
  if (scope !== undefined && scope !== sessionId) {
    throw new A2aError('PermissionDenied', `the caller is confined to session '${scope}'`);
  }
  if (rec.state === 'closed') throw new A2aError('InvalidParams', `session '${sessionId}' is closed`);
  return rec;
}
