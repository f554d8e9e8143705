import { BindingError } from '@pty-ws/protocol';
import { UnsupportedAuditQuery, auditEventToJson, type AuditLog, type AuditQuery } from '@pty-ws/ports';
import { bearerFromHeader, isAdmin, type Authenticator } from '../auth';
import type { HttpRequest, TemplatedApp } from '../uws';
import { checkInstanceBinding } from '../admin/admin-binding';
import type { RequestGate } from '../limits/request-gate';
import { admitRequest } from './admit-request';
import type { TransportPolicy } from '../transport';
import { responder, sendCaught, sendJson } from './respond';
import { refusedTransport, transportOf } from './transport-gate';

export interface AuditApiDeps {
  instanceId: string;
  auth: Authenticator;
  audit: AuditLog;
  transport?: TransportPolicy;
  /** The request limits every API shares (429 past them); absent: none. */
  admit?: RequestGate;
}

export const AUDIT_DEFAULT_LIMIT = 100;
export const AUDIT_MAX_LIMIT = 1000;

/**
 * `GET /api/v1/audit?session_id=&principal=&since=&after_id=&limit=` (pty:admin): the instance's
 * audit trail, oldest first. `since` is RFC 3339 or epoch milliseconds; page with `after_id` =
 * the last `id` received (`next_after_id` in the answer when the page was full).
 */
export function mountAuditApi(app: TemplatedApp, deps: AuditApiDeps): void {
  app.get('/api/v1/audit', (res, req) => {
    const r = responder(res);
    const verdict = transportOf(deps.transport, res, req);
    if (refusedTransport(r, verdict)) return;
    const authorization = req.getHeader('authorization');
    let query: AuditQuery;
    try {
      query = parseQuery(req, deps.instanceId);
    } catch (err) {
      return sendCaught(r, err);
    }
    void (async () => {
      let principal;
      try {
        principal = await deps.auth.authenticate(
          bearerFromHeader(authorization),
          verdict.ok ? verdict.certificate : undefined,
          verdict.ok ? verdict.remoteAddress : undefined,
        );
      } catch (err) {
        return sendCaught(r, err);
      }
      if (!admitRequest(r, deps.admit, principal, deps.instanceId)) return;
      if (!isAdmin(principal)) {
        return sendCaught(r, new BindingError('PERMISSION_DENIED', 'this endpoint needs the pty:admin scope'));
      }
      checkInstanceBinding(principal, deps.instanceId);
      // A session-bound admin reads its own session's trail only.
      if (principal.sessionId !== undefined) {
        if (query.sessionId !== undefined && query.sessionId !== principal.sessionId)
          throw new BindingError('PERMISSION_DENIED', 'this token is scoped to another session');
        query.sessionId = principal.sessionId;
      }
      try {
        const events = await deps.audit.query(query);
        const last = events[events.length - 1];
        sendJson(r, 200, {
          events: events.map(auditEventToJson),
          next_after_id: events.length === query.limit && last ? last.id : null,
        });
      } catch (err) {
        if (err instanceof UnsupportedAuditQuery) {
          return sendCaught(r, new BindingError('UNSUPPORTED_OPERATION', err.message));
        }
        throw err;
      }
    })().catch((err: unknown) => sendCaught(r, err));
  });
}

function parseQuery(req: HttpRequest, instanceId: string): AuditQuery {
  const params = new URLSearchParams(req.getQuery() ?? '');
  for (const key of params.keys()) {
    if (!['session_id', 'principal', 'since', 'after_id', 'limit'].includes(key)) {
      throw new BindingError('INVALID_REQUEST', `unknown query parameter '${key}'`);
    }
  }
  const q: AuditQuery = { instanceId, limit: AUDIT_DEFAULT_LIMIT };
  const sessionId = params.get('session_id');
  const principal = params.get('principal');
  const since = params.get('since');
  const afterId = params.get('after_id');
  const limit = params.get('limit');
  if (sessionId) q.sessionId = sessionId;
  if (principal) q.principal = principal;
  if (since) q.since = parseTime(since);
  if (afterId) q.afterId = parseCount('after_id', afterId, 0, Number.MAX_SAFE_INTEGER);
  if (limit) q.limit = parseCount('limit', limit, 1, AUDIT_MAX_LIMIT);
  return q;
}

function parseCount(name: string, text: string, min: number, max: number): number {
  const n = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new BindingError('INVALID_REQUEST', `query parameter '${name}' must be an integer in ${min}..${max}`);
  }
  return n;
}

function parseTime(text: string): number {
  const ms = /^\d{1,16}$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) {
    throw new BindingError(
      'INVALID_REQUEST',
      "query parameter 'since' must be RFC 3339 (2026-01-31T12:00:00Z) or epoch ms",
    );
  }
  return ms;
}
