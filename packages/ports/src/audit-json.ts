import {
  AUDIT_EVENT_TYPES,
  type AuditEvent,
  type AuditEventType,
  type AuditQuery,
  type StoredAuditEvent,
} from './audit';

/** The snake_case fields of an event as stored (a JSON line, a table row, one recordset item). */
export interface AuditRecordJson {
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

export function auditRecordToJson(e: AuditEvent): AuditRecordJson {
  return {
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

/** The stored event of a record the sink already checked; absent optional ids stay absent. */
export function auditRecordFromJson(id: number, r: AuditRecordJson): StoredAuditEvent {
  const e: StoredAuditEvent = {
    id,
    at: r.at,
    type: r.type,
    instanceId: r.instance_id,
    principal: r.principal,
    disclosure: r.disclosure,
    detail: r.detail,
  };
  if (r.session_id !== null) e.sessionId = r.session_id;
  if (r.client_id !== null) e.clientId = r.client_id;
  if (r.edge_id !== null) e.edgeId = r.edge_id;
  return e;
}

/**
 * One audit event as JSON: the line of the JSON-lines sink and the item of `GET /api/v1/audit`.
 * `ts` is for people, `at` (epoch ms) for programs.
 */
export interface AuditEventJson extends AuditRecordJson {
  id: number;
  ts: string;
}

export function auditEventToJson(e: StoredAuditEvent): AuditEventJson {
  return { id: e.id, ts: new Date(e.at).toISOString(), ...auditRecordToJson(e) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Parses a line written by `auditEventToJson`; undefined for anything else (a torn last line). */
export function auditEventFromJson(value: unknown): StoredAuditEvent | undefined {
  if (!isObject(value)) return undefined;
  const { id, at, type, instance_id, principal, disclosure, detail } = value;
  if (typeof id !== 'number' || typeof at !== 'number' || typeof instance_id !== 'string') return undefined;
  if (typeof principal !== 'string' || typeof disclosure !== 'boolean' || !isObject(detail)) return undefined;
  if (!(AUDIT_EVENT_TYPES as readonly unknown[]).includes(type)) return undefined;
  return auditRecordFromJson(id, {
    at,
    type: type as AuditEventType,
    instance_id,
    principal,
    disclosure,
    detail,
    session_id: optString(value['session_id']),
    client_id: optString(value['client_id']),
    edge_id: optString(value['edge_id']),
  });
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
