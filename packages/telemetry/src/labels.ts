/**
 * Every label value the pty-ws metrics may carry. Label sets are closed: anything outside a list
 * is folded into `other`, so no caller can grow a metric's cardinality (never a session or client id).
 */

/** Kinds of log frames fanned out by the edge (`ptyws_frames_out_total{kind}`). */
export const FRAME_KINDS = [
  'output',
  'keyframe',
  'resize',
  'membership_changed',
  'closed',
  'task_status_update',
  'task_artifact_update',
  'other',
] as const;
export type FrameKind = (typeof FRAME_KINDS)[number];

/** Wire names of frame kinds (the `payload.kind` of a `pty.session_frame`, or the op) → label. */
const WIRE_KINDS: Readonly<Record<string, FrameKind>> = {
  Output: 'output',
  Keyframe: 'keyframe',
  Resize: 'resize',
  MembershipChanged: 'membership_changed',
  Closed: 'closed',
  TaskStatusUpdate: 'task_status_update',
  TaskArtifactUpdate: 'task_artifact_update',
};

/** `Output`, `MembershipChanged`, `TaskStatusUpdate`, … → the `kind` label; unknown → `other`. */
export function frameKindOf(wireKind: string | undefined): FrameKind {
  return (wireKind !== undefined && Object.hasOwn(WIRE_KINDS, wireKind) ? WIRE_KINDS[wireKind] : undefined) ?? 'other';
}

/** Inbound message formats (`ptyws_frames_in_total{format}`): JSON text or binary (`PW1I`). */
export const WIRE_FORMATS = ['json', 'binary'] as const;
export type WireFormat = (typeof WIRE_FORMATS)[number];

/** `ptyws_connections{subprotocol}`: the two PTY subprotocols (binding §2.2). */
export const SUBPROTOCOL_JSON_LABEL = 'pty-ws.v1';
export const SUBPROTOCOL_BINARY_LABEL = 'pty-ws.v1.binary';
export const SUBPROTOCOLS = [SUBPROTOCOL_JSON_LABEL, SUBPROTOCOL_BINARY_LABEL] as const;

/** `ptyws_connections{role}`: `none` until the connection joined (or for task-only connections). */
export const CONNECTION_ROLES = ['controller', 'observer', 'none'] as const;
export type ConnectionRole = (typeof CONNECTION_ROLES)[number];

export function connectionRoleOf(role: string | undefined): ConnectionRole {
  return role === 'controller' || role === 'observer' ? role : 'none';
}

/** `ptyws_auth_failures_total{reason}`: the Authenticator's reasons plus a token put in the URL. */
export const AUTH_FAILURE_REASONS = ['missing', 'invalid', 'expired', 'revoked', 'token_in_url', 'other'] as const;
export type AuthFailureReason = (typeof AUTH_FAILURE_REASONS)[number];

export function authFailureReasonOf(reason: string): AuthFailureReason {
  return (AUTH_FAILURE_REASONS as readonly string[]).includes(reason) ? (reason as AuthFailureReason) : 'other';
}

/** `ptyws_rate_limited_total{limit}`: which limit refused a request. */
export const RATE_LIMITS = [
  'request_keyframe',
  'max_observers',
  'connections_principal',
  'connections_instance',
  'requests_principal',
  'frames',
  'input_bytes',
  'sockets',
  'open_connections_principal',
  'open_connections_instance',
  'sessions_agent',
  'sessions_instance',
  'other',
] as const;
export type RateLimit = (typeof RATE_LIMITS)[number];

/** `ptyws_sessions{state}` on the owning agent. */
export const SESSION_STATES = ['starting', 'running', 'closing', 'closed'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/** `ptyws_keyframes_total{trigger}`: logged on the cadence, or made for one connection (join, request, role change, lag). */
export const KEYFRAME_TRIGGERS = ['cadence', 'on_demand'] as const;
export type KeyframeTrigger = (typeof KEYFRAME_TRIGGERS)[number];

/**
 * `ptyws_mirror_parse_errors_total{kind}`: output the agent's headless terminal skipped as
 * unparsable where it stood (a DEL, a binary dump), or a chunk it threw on (an emulator bug).
 */
export const MIRROR_PARSE_ERROR_KINDS = ['malformed', 'exception'] as const;
export type MirrorParseErrorKind = (typeof MIRROR_PARSE_ERROR_KINDS)[number];

/**
 * Why a session's PTY is not being read: every reader behind, the mirror or archive far behind, or
 * the frame log unreachable with PTYWS_LOG_OUTAGE_BUFFER_BYTES of output waiting for it.
 */
export const OUTPUT_HOLD_REASONS = ['readers', 'mirror', 'archive', 'log'] as const;
export type OutputHoldReason = (typeof OUTPUT_HOLD_REASONS)[number];

/**
 * `ptyws_pty_read_path{path}`: who reads a session's pty now. `event_loop`: the agent itself, the
 * usual path; `stream_relay`: the relay process, while a session streams to one reader;
 * `node_pty`: node-pty's own reader, when the pty spawner could not run and node-pty forks the agent.
 */
export const PTY_READ_PATHS = ['event_loop', 'stream_relay', 'node_pty'] as const;
export type PtyReadPath = (typeof PTY_READ_PATHS)[number];

/**
 * `ptyws_helper_failures_total{where}`: a helper the agent uses when it can, and works without
 * (more slowly) when it cannot. `stream_relay`: a relay could not start or was killed (that
 * session reads on the event loop from then on); `pty_spawner`: the spawner cannot run here (every
 * session is forked by node-pty); `mirror_worker`: the keyframe worker thread is missing or died.
 */
export const HELPER_FAILURE_SITES = ['stream_relay', 'pty_spawner', 'mirror_worker'] as const;
export type HelperFailureSite = (typeof HELPER_FAILURE_SITES)[number];

const TOKEN = /^[a-z0-9][a-z0-9_.-]{0,31}$/;

/** A short lower-case token (backend name, query name) or `other`. */
export function boundedToken(value: string): string {
  return TOKEN.test(value) ? value : 'other';
}
