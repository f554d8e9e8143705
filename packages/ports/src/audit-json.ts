import { AUDIT_EVENT_TYPES, type AuditEventType, type AuditQuery, type StoredAuditEvent } from './audit';

/**
 * One audit event as JSON: the line of the JSON-lines sink and the item of `GET /api/v1/audit`.
 * `ts` is for people, `at` (epoch ms) for programs.
 */
export interface AuditEventJson {
  id: number;
  ts: string;
  at: number;
  type: AuditEventType;
  instance_id: string;
  session_id: string | null;
  principal: string;
  client_id: string | null;
  edge_id: string | null;
  disclosure: boolean;
  detail: Record<string, unknown>;
}

export function auditEventToJson(e: StoredAuditEvent): AuditEventJson {
  return {
    id: e.id,
    ts: new Date(e.at).toISOString(),
    at: e.at,
    type: e.type,
    instance_id: e.instanceId,
    session_id: e.sessionId ?? null,
    principal: e.principal,
    client_id: e.clientId ?? null,
    edge_id: e.edgeId ?? null,
    disclosure: e.disclosure,
    detail: e.detail,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Parses a line written by `auditEventToJson`; undefined for anything else (a torn last line). */
export function auditEventFromJson(value: unknown): StoredAuditEvent | undefined {
  if (!isObject(value)) return undefined;
  const { id, at, type, instance_id, principal, disclosure, detail } = value;
  if (typeof id !== 'number' || typeof at !== 'number' || typeof instance_id !== 'string') return undefined;
  if (typeof principal !== 'string' || typeof disclosure !== 'boolean' || !isObject(detail)) return undefined;
  if (!(AUDIT_EVENT_TYPES as readonly unknown[]).includes(type)) return undefined;
  const e: StoredAuditEvent = {
    id,
    at,
    type: type as AuditEventType,
    instanceId: instance_id,
    principal,
    disclosure,
    detail,
  };
  const sessionId = optString(value['session_id']);
  const clientId = optString(value['client_id']);
  const edgeId = optString(value['edge_id']);
  if (sessionId !== undefined) e.sessionId = sessionId;
  if (clientId !== undefined) e.clientId = clientId;
  if (edgeId !== undefined) e.edgeId = edgeId;
  return e;
}

/** The filter of an AuditQuery, for sinks that scan. */
export function matchesAuditQuery(e: StoredAuditEvent, q: AuditQuery): boolean {
  if (e.instanceId !== q.instanceId) return false;
  if (q.sessionId !== undefined && e.sessionId !== q.sessionId) return false;
  if (q.principal !== undefined && e.principal !== q.principal) return false;
  if (q.since !== undefined && e.at < q.since) return false;
  if (q.afterId !== undefined && e.id <= q.afterId) return false;
  return true;
}
