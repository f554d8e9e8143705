import {
  SNAPSHOT_FORMAT,
  errorFrame,
  newId,
  serverFrame,
  type BindingErrorCode,
  type GoodbyeReason,
  type PtyErrorCode,
  type ServiceParameters,
  type SessionFramePayload,
} from '@pty-ws/protocol';
import type { Keyframe, RoleGrant } from '@pty-ws/ports';
import { sendMessage } from '../uws';
import type { Conn } from './connection';

/**
 * Every frame addressed to one connection (responses, RoleAssigned, join and request Keyframes,
 * binding and PTY Errors, pong, binding_hello, binding_goodbye) leaves through here.
 *
 * The sequence it carries is chosen in one place, `sequenceOf`: the last log frame already
 * written to this connection (README interpretation 1), so `sequence` never decreases on it.
 * Log frames themselves are written by the session hub, which keeps `conn.lastSeq` up to date;
 * what it delivered this turn is written first (`Conn.flushFeed`).
 */
export function sequenceOf(conn: Conn): number {
  return conn.lastSeq;
}

/** Sends one per-connection frame (not logged); nothing once the socket is gone. */
export function sendDirect(
  conn: Conn,
  op: string,
  payload: unknown,
  opts: { id?: string; serviceParameters?: ServiceParameters } = {},
): void {
  if (!conn.open || !conn.ws) return;
  conn.flushFeed?.();
  sendMessage(conn.ws, JSON.stringify(serverFrame(op, payload, sequenceOf(conn), opts)), false);
}

/** A response: the request's id echoed. */
export function sendReply(conn: Conn, requestId: string, op: string, payload: unknown): void {
  sendDirect(conn, op, payload, { id: requestId });
}

/** A binding Error (§6), echoing the request id when there is one. */
export function sendError(
  conn: Conn,
  code: BindingErrorCode,
  message: string,
  requestId?: string,
  data?: Record<string, unknown>,
): void {
  if (!conn.open || !conn.ws) return;
  conn.flushFeed?.();
  sendMessage(conn.ws, JSON.stringify(errorFrame(code, message, sequenceOf(conn), requestId ?? newId(), data)), false);
}

function sendSessionFrame(conn: Conn, payload: SessionFramePayload): void {
  sendDirect(conn, 'pty.session_frame', payload);
}

/** A PTY-level Error frame for one request (write/resize failed, no keyframe); the socket stays. */
export function sendPtyError(conn: Conn, code: PtyErrorCode, message: string): void {
  sendSessionFrame(conn, { kind: 'Error', code, message });
}

export function sendRoleAssigned(conn: Conn, grant: RoleGrant): void {
  sendSessionFrame(conn, {
    kind: 'RoleAssigned',
    role: grant.role,
    client_id: conn.clientId,
    ...(grant.downgraded ? { downgraded: true } : {}),
    ...(grant.reason ? { reason: grant.reason } : {}),
  });
}

/** A Keyframe for this connection; it stands for every frame up to its anchor. */
export function sendKeyframe(conn: Conn, k: Keyframe): void {
  if (conn.lastSeq < k.anchorSeq) conn.lastSeq = k.anchorSeq;
  if (conn.position < k.anchorSeq) conn.position = k.anchorSeq;
  sendSessionFrame(conn, {
    kind: 'Keyframe',
    snapshot: Buffer.from(k.snapshot, 'utf8').toString('base64'),
    snapshot_format: SNAPSHOT_FORMAT,
    snapshot_cols: k.cols,
    snapshot_rows: k.rows,
    anchor_sequence: k.anchorSeq,
  });
}

export function sendGoodbye(conn: Conn, reason: GoodbyeReason, detail?: string): void {
  sendDirect(conn, 'binding_goodbye', detail ? { reason, detail } : { reason });
}
