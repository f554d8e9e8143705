/**
 * The A2A data model as carried on this binding (binding §1.1: JSON encodings of the canonical
 * messages). Task states are written as the binding text writes them.
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

export interface TextPart {
  text: string;
  metadata?: Record<string, unknown>;
}
export interface DataPart {
  data: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}
export interface FilePart {
  file: { name?: string; mime_type?: string; bytes?: string; uri?: string };
  metadata?: Record<string, unknown>;
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
