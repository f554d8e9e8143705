/**
 * The A2A data model as carried on this binding (binding §1.1: JSON encodings of the canonical
 * messages): the proto3 JSON mapping of `proto/lf/a2a/v1/a2a.proto` (A2A v1.0) with the original
 * snake_case field names. Two binding-level spellings, both lossless: task states are written as
 * the binding text writes them (`COMPLETED` for `TASK_STATE_COMPLETED`), and
 * `TaskStatusUpdateEvent.final` is kept. `@pty-ws/a2a-proto` converts to and from the proto types.
 */
export type TaskState =
  'SUBMITTED' | 'WORKING' | 'INPUT_REQUIRED' | 'COMPLETED' | 'CANCELED' | 'FAILED' | 'REJECTED' | 'AUTH_REQUIRED';

export const TERMINAL_TASK_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'COMPLETED',
  'CANCELED',
  'FAILED',
  'REJECTED',
]);

/** States after which no further update is sent for a task (binding §4.2 also lists INPUT_REQUIRED). */
export const FINAL_UPDATE_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'COMPLETED',
  'FAILED',
  'CANCELED',
  'INPUT_REQUIRED',
  'REJECTED',
]);

/**
 * A2A v1.0 `Part`: exactly one of `text`, `raw` (base64 bytes), `url`, `data` (any JSON value),
 * plus optional `metadata`, `filename` and `media_type` for every kind (proto `lf.a2a.v1.Part`).
 */
interface PartCommon {
  metadata?: Record<string, unknown>;
  filename?: string;
  media_type?: string;
}
export interface TextPart extends PartCommon {
  text: string;
}
/** Structured content: proto `google.protobuf.Value`, so any JSON value (usually an object). */
export interface DataPart extends PartCommon {
  data: Record<string, unknown> | unknown[] | string | number | boolean | null;
}
/**
 * File content, inline (`raw`, base64) or by reference (`url`). A2A v1.0 flattened the v0.3
 * `file: {name, mime_type, bytes, uri}` object into these Part fields.
 */
export interface FilePart extends PartCommon {
  raw?: string;
  url?: string;
}
export type Part = TextPart | DataPart | FilePart;

export type Role = 'ROLE_USER' | 'ROLE_AGENT';

export interface Message {
  message_id: string;
  context_id?: string;
  task_id?: string;
  role: Role;
  parts: Part[];
  metadata?: Record<string, unknown>;
  extensions?: string[];
  /** Tasks this message refers to for context (A2A v1.0). */
  reference_task_ids?: string[];
}

export interface TaskStatus {
  state: TaskState;
  message?: Message;
  timestamp: string;
}

export interface Artifact {
  artifact_id: string;
  name?: string;
  description?: string;
  parts: Part[];
  metadata?: Record<string, unknown>;
  extensions?: string[];
}

export interface Task {
  id: string;
  context_id: string;
  status: TaskStatus;
  artifacts?: Artifact[];
  history?: Message[];
  metadata?: Record<string, unknown>;
}

export interface TaskStatusUpdateEvent {
  task_id: string;
  context_id: string;
  status: TaskStatus;
  /**
   * pty-ws/v1 binding field, not in A2A v1.0 (which dropped it from TaskStatusUpdateEvent): true
   * on the last update of the task. The gRPC/REST/JSON-RPC encodings leave it out; it follows
   * from `status.state` (FINAL_UPDATE_STATES).
   */
  final: boolean;
  metadata?: Record<string, unknown>;
}

/** Canonical A2A error object (`a2a_error` in binding §6). */
export interface A2AError {
  /** A2A error name, e.g. `TaskNotFound`. */
  type: string;
  /** JSON-RPC error code used by the JSON-RPC binding for the same error. */
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

export function textOf(message: Message): string {
  return message.parts.map((p) => ('text' in p && typeof p.text === 'string' ? p.text : '')).join('');
}
