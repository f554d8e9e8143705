import type {
  Artifact,
  Message,
  Scope,
  ServiceParameters,
  Task,
  TaskState,
  TaskStatusUpdateEvent,
} from '@pty-ws/protocol';

/**
 * The transport-agnostic A2A core of one pty-ws deployment. Every control-plane binding (HTTP+JSON,
 * JSON-RPC 2.0, gRPC) parses its wire format into these calls and renders their results and
 * `A2aError`s back; none of them holds task logic of its own. pty-ws/v1 makes the same
 * SessionControl calls underneath, confined to its connection's session (`sessionScope` offers that
 * confinement here). JSON shapes are the snake_case encodings of `@pty-ws/protocol` (the objects the
 * WebSocket binding sends), so a task read over any binding is the same object.
 *
 * Scoping: every call is confined to `ctx.instanceId` (and to `ctx.principal.sessionId` when the
 * token is bound to one session). `listTasks` is agent-scoped (the whole instance) unless
 * `params.session_id` narrows it; the pty-ws/v1 binding narrows it to its connection's session.
 */
export interface A2aOperations {
  /**
   * Runs the message as a task in the session the message names (SESSION_ID_METADATA_KEY), or,
   * for a caller that names none and may create sessions, in the session of its context (created
   * on the context's first message), and resolves once it reached a final or interrupted state, or, with
   * `configuration.return_immediately`, once it started (WORKING). Needs `pty:control`. A part of
   * a media type other than INPUT_MEDIA_TYPES is ContentTypeNotSupported; a message continuing a
   * task in a terminal state is UnsupportedOperation.
   */
  sendMessage(params: SendMessageParams, ctx: CallContext): Promise<SendMessageResult>;
  /**
   * Creates the task, then yields the `Task` snapshot (SUBMITTED) first and every status update
   * after it, ending after the first final update. Needs `pty:control`. Breaking out of the
   * iteration (`return()`) unsubscribes; the task keeps running.
   */
  sendStreamingMessage(params: SendMessageParams, ctx: CallContext): AsyncIterable<StreamEvent>;
  /** Needs `pty:observe`. TaskNotFound for unknown ids and for tasks outside the caller's scope. */
  getTask(params: GetTaskParams, ctx: CallContext): Promise<Task>;
  /** Newest first; keyset page tokens shared with the WebSocket binding. Needs `pty:observe`. */
  listTasks(params: ListTasksParams, ctx: CallContext): Promise<ListTasksResult>;
  /** Needs `pty:control`. TaskNotCancelable for tasks already in a terminal state. */
  cancelTask(params: CancelTaskParams, ctx: CallContext): Promise<Task>;
  /**
   * Yields the current `Task` snapshot, then live updates until the first final one. A task that
   * is already terminal is UnsupportedOperation (A2A §3.1.6); an interrupted one (INPUT_REQUIRED)
   * yields its snapshot and ends. Needs `pty:observe`.
   */
  subscribeToTask(params: SubscribeToTaskParams, ctx: CallContext): AsyncIterable<StreamEvent>;

  /** Needs `pty:control`. Creates or replaces (same `id`) the config; the stored config is returned. */
  setTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    ctx: CallContext,
  ): Promise<TaskPushNotificationConfig>;
  /** Needs `pty:observe`. TaskNotFound when the task or the config is unknown. */
  getTaskPushNotificationConfig(
    params: PushNotificationConfigRef,
    ctx: CallContext,
  ): Promise<TaskPushNotificationConfig>;
  /** Needs `pty:observe`. */
  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsParams,
    ctx: CallContext,
  ): Promise<ListTaskPushNotificationConfigsResult>;
  /** Needs `pty:control`. Idempotent for a known task: deleting an absent config succeeds. */
  deleteTaskPushNotificationConfig(params: PushNotificationConfigRef, ctx: CallContext): Promise<void>;
}

// ---- call context -----------------------------------------------------------------------------

/** Who calls: structurally the edge's `Principal`, so bindings pass theirs through unchanged. */
export interface CallerPrincipal {
  id: string;
  scopes: ReadonlySet<Scope>;
  /** The instance the bearer token belongs to (absent: auth disabled, any instance). */
  instanceId?: string;
  /** Set when the token is restricted to one session: tasks of other sessions are invisible. */
  sessionId?: string;
  tokenId?: string;
  /** When the token stops being valid (epoch ms): streams opened with it end then. */
  expiresAt?: number;
}

export interface CallContext {
  principal: CallerPrincipal;
  /** The instance of the URL (`/agents/{instance}/a2a/...`) or gRPC `tenant`/metadata. */
  instanceId: string;
  /**
   * Extension URIs the caller activated (`A2A-Extensions` header, JSON-RPC `extensions`, gRPC
   * `a2a-extensions` metadata). Activating `pty-extensions/v1` here is UnsupportedExtension.
   */
  requestedExtensions?: readonly string[];
  /** A2A service parameters (trace context…): stored with the task and carried on its events. */
  serviceParameters?: ServiceParameters;
  /** Convenience for logs: `serviceParameters.trace_id` or a transport trace header. */
  traceId?: string;
  /**
   * Confines every call to one session: the pty-ws/v1 binding sets its connection's session here
   * (ListTasks scoping deviation, binding §4.4). A session-bound token confines calls the same way.
   */
  sessionScope?: string;
  /** Aborts streams when the caller goes away (SSE socket closed, gRPC call canceled). */
  signal?: AbortSignal;
  /** The caller's network address, as the edge saw it (the audit trail's `source_address`). */
  sourceAddress?: string;
  /**
   * Where the core reports each change it made (task sent or canceled, push config stored or
   * deleted — inline ones in a SendMessage included), with the session it concerns. The binding
   * supplies it (the edge's audit trail); absent: not recorded.
   */
  audit?: (event: A2aAuditEvent) => void;
}

/** A change the core made on a caller's behalf (CallContext.audit). */
export interface A2aAuditEvent {
  /** `session_create`: a session started for the context of a caller that named none. */
  type: 'task_send' | 'task_cancel' | 'push_config_set' | 'push_config_delete' | 'session_create';
  sessionId: string;
  detail: Record<string, unknown>;
}

// ---- requests and results (snake_case, as on the pty-ws wire) ---------------------------------

export interface SendMessageConfiguration {
  accepted_output_modes?: string[];
  history_length?: number;
  /** A2A v1.0: return right after the task is created instead of waiting for a final state. */
  return_immediately?: boolean;
  /** A2A v0.3 spelling of the inverse of `return_immediately` (`blocking: false`). */
  blocking?: boolean;
  /** Registered for the new task before it runs (task_id is filled in by the core). */
  task_push_notification_config?: Omit<TaskPushNotificationConfig, 'task_id'> & { task_id?: string };
}

export interface SendMessageParams {
  message: Message;
  configuration?: SendMessageConfiguration;
  /** Request metadata; `session_id` here also selects the session (see `sessionIdOf`). */
  metadata?: Record<string, unknown>;
}

/** A2A v1.0 SendMessageResponse: a task (always, here) or a direct message. */
export type SendMessageResult = { task: Task } | { message: Message };

export interface GetTaskParams {
  id: string;
  history_length?: number;
}

export interface ListTasksParams {
  /** Narrows the agent-scoped listing to one session (pty-ws extension of the A2A request). */
  session_id?: string;
  context_id?: string;
  /** A task state as this wire writes it (`COMPLETED`), or the proto spelling `TASK_STATE_COMPLETED`. */
  status?: TaskState | string;
  /** 1..100, default 50. */
  page_size?: number;
  page_token?: string;
  history_length?: number;
  /** Default true (artifacts are small here and the WebSocket binding always includes them). */
  include_artifacts?: boolean;
}

export interface ListTasksResult {
  tasks: Task[];
  /** Empty string when there are no more pages (A2A v1.0). */
  next_page_token: string;
  page_size: number;
}

export interface CancelTaskParams {
  id: string;
  metadata?: Record<string, unknown>;
}

export interface SubscribeToTaskParams {
  id: string;
}

export interface TaskArtifactUpdateEvent {
  task_id: string;
  context_id: string;
  artifact: Artifact;
  append?: boolean;
  last_chunk?: boolean;
  metadata?: Record<string, unknown>;
}

/** One element of a stream (A2A v1.0 StreamResponse): exactly one member is set. */
export type StreamEvent =
  | { task: Task }
  | { message: Message }
  | { status_update: TaskStatusUpdateEvent }
  | { artifact_update: TaskArtifactUpdateEvent };

// ---- push notifications -----------------------------------------------------------------------

export interface AuthenticationInfo {
  /** HTTP auth scheme, e.g. `Bearer` or `Basic`: sent as `Authorization: <scheme> <credentials>`. */
  scheme: string;
  credentials?: string;
}

/** A2A v1.0 TaskPushNotificationConfig (flat: the config and the task it belongs to). */
export interface TaskPushNotificationConfig {
  task_id: string;
  /** Chosen by the server (UUIDv7) when absent on Set. */
  id?: string;
  /** Absolute http(s) URL the deliverer POSTs to. */
  url: string;
  /** Echoed to the receiver as `X-A2A-Notification-Token` so it can check the sender. */
  token?: string;
  authentication?: AuthenticationInfo;
  tenant?: string;
}

export interface PushNotificationConfigRef {
  task_id: string;
  id: string;
}

export interface ListTaskPushNotificationConfigsParams {
  task_id: string;
  page_size?: number;
  page_token?: string;
}

export interface ListTaskPushNotificationConfigsResult {
  configs: TaskPushNotificationConfig[];
  next_page_token: string;
}

/**
 * How a REST/JSON-RPC/gRPC SendMessage picks its session (these bindings are agent-scoped, a
 * session is not in the URL): `message.metadata.session_id`, else `params.metadata.session_id`,
 * else — when the message continues a task (`message.task_id`) — that task's session. Otherwise
 * InvalidParams. The key is also accepted as `sessionId`.
 */
export const SESSION_ID_METADATA_KEY = 'session_id';

export { A2aError, A2A_ERROR_SPECS, type A2aErrorName } from './a2a-error';
