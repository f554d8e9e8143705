import type { Message, Task, TaskStatusUpdateEvent } from './a2a';
import type { ErrorPayload, PtyErrorCode } from './errors';

export type ServiceParameters = Record<string, unknown>;

/** The frame envelope of binding §3. */
export interface Envelope<P = Record<string, unknown> | null> {
  op: string;
  id: string;
  ts: string;
  sequence?: number;
  replay_from?: number | null;
  service_parameters?: ServiceParameters;
  extensions?: string[];
  payload: P;
}

export type PtyRole = 'controller' | 'observer';
export type SessionBackend = 'native' | 'tmux' | 'screen' | 'zellij';
export type SessionClass = 'direct' | 'managed';
export type OutputStream = 'stdout' | 'stderr' | 'log';
export type ClosedReason = 'normal' | 'killed' | 'timeout' | 'instance_terminated' | 'error';
export type GoodbyeReason = 'server_shutdown' | 'session_closed' | 'principal_revoked' | 'rate_limited' | 'other';

export interface TerminalSize {
  cols: number;
  rows: number;
}

/** Process-start and session-host fields of binding §5.1.1. */
export interface SessionHostFields {
  session_backend?: SessionBackend;
  backend?: SessionBackend;
  session_class?: SessionClass;
  argv?: string[];
  command?: string;
  cwd?: string;
  working_dir?: string;
  env?: Record<string, string>;
  terminal_size?: TerminalSize;
}

// ---- client → server payloads -------------------------------------------------------------
export interface JoinSessionPayload extends SessionHostFields {
  role?: PtyRole;
  cols?: number;
  rows?: number;
  client_label?: string;
}
export interface SessionInputPayload {
  data: string;
}
export interface SessionResizePayload {
  cols: number;
  rows: number;
}
export interface RequestRolePayload {
  role: PtyRole;
}
export interface SendMessagePayload {
  message: Message;
}
export interface TaskIdPayload {
  task_id: string;
}
export interface GetTaskPayload extends TaskIdPayload {
  history_length?: number;
}
export interface ListTasksPayload {
  page_size?: number;
  page_token?: string | null;
  filter?: { state?: string; context_id?: string } | null;
}
export interface PingPayload {
  client_ts: string;
}

// ---- server → client payloads -------------------------------------------------------------
export interface SessionHostCapabilities {
  supported_backends: SessionBackend[];
  default_backend: SessionBackend;
  supported_classes: SessionClass[];
  default_class: SessionClass;
  observe_supported: boolean;
  drive_supported: boolean;
  reattach_supported: boolean;
}

export interface BindingHelloPayload {
  binding_uri: string;
  binding_version: string;
  supported_operations: string[];
  activated_extensions: string[];
  session: { session_id: string; current_sequence: number };
  session_host: SessionHostCapabilities;
  payload_mode: { binary: boolean; binary_subprotocol: string; json_subprotocol: string };
}

export interface ClientRef {
  client_id: string;
  label?: string;
}

export type SessionFramePayload =
  | { kind: 'Output'; stream: OutputStream; data: string }
  | { kind: 'Resize'; cols: number; rows: number }
  | { kind: 'RoleAssigned'; role: PtyRole; client_id: string; downgraded?: boolean; reason?: string }
  | { kind: 'MembershipChanged'; controllers: ClientRef[]; observers: ClientRef[] }
  | {
      kind: 'Keyframe';
      snapshot: string;
      snapshot_format: 'vt100-screen-state-v1';
      snapshot_cols: number;
      snapshot_rows: number;
      anchor_sequence: number;
    }
  | { kind: 'Closed'; exit_code: number | null; reason: ClosedReason; detail?: string }
  | { kind: 'Error'; code: PtyErrorCode; message: string };

export type SessionFrameKind = SessionFramePayload['kind'];

export interface TaskStatusUpdatePayload {
  task: Task;
  delta: TaskStatusUpdateEvent;
}

export type ErrorFrame = Envelope<ErrorPayload>;
