/**
 * The project's own JSON Schemas (2020-12) for client→server frames. The published schemas lag
 * the binding text (no session-host fields on join, no pty.release_role); the text wins, so these
 * extend them. Kept as data so the browser bundle and the server validate identically.
 */
const uuidV7 = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-7[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$';
/** RFC 4648 §4 standard alphabet with padding. */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

const dimension = { type: 'integer', minimum: 1, maximum: 1024 } as const;
const empty = { type: 'object', additionalProperties: false, properties: {} } as const;
const taskId = { type: 'string', minLength: 1, maxLength: 128 } as const;
const backend = { enum: ['native', 'tmux', 'screen', 'zellij'] } as const;

/** A2A v1.0 Part (`text` | `raw` | `url` | `data`); `file` is the v0.3 shape, still accepted. */
const part = {
  type: 'object',
  minProperties: 1,
  properties: {
    text: { type: 'string' },
    raw: { type: 'string', pattern: BASE64_PATTERN },
    url: { type: 'string' },
    data: {},
    file: { type: 'object' },
    metadata: { type: 'object' },
    filename: { type: 'string' },
    media_type: { type: 'string' },
  },
} as const;

const message = {
  type: 'object',
  required: ['message_id', 'role', 'parts'],
  properties: {
    message_id: { type: 'string', minLength: 1, maxLength: 128 },
    context_id: { type: 'string', maxLength: 128 },
    task_id: { type: 'string', maxLength: 128 },
    role: { enum: ['ROLE_USER', 'ROLE_AGENT', 'user', 'agent'] },
    parts: { type: 'array', minItems: 1, maxItems: 64, items: part },
    metadata: { type: 'object' },
    extensions: { type: 'array', items: { type: 'string' } },
    reference_task_ids: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const envelopeSchema = {
  $id: 'pty-ws/v1/client-envelope',
  type: 'object',
  required: ['op', 'id', 'ts', 'payload'],
  additionalProperties: false,
  properties: {
    op: { type: 'string', minLength: 1, maxLength: 128 },
    id: { type: 'string', pattern: uuidV7 },
    ts: { type: 'string', format: 'date-time' },
    sequence: false,
    replay_from: { type: ['integer', 'null'], minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    service_parameters: { type: 'object', maxProperties: 64 },
    extensions: { type: 'array', uniqueItems: true, maxItems: 16, items: { type: 'string', maxLength: 512 } },
    payload: { type: ['object', 'null'] },
  },
} as const;

/** Payload schema per client op. A `null` payload is read as `{}`. */
export const payloadSchemas: Record<string, object> = {
  SendMessage: { type: 'object', required: ['message'], properties: { message } },
  SendStreamingMessage: { type: 'object', required: ['message'], properties: { message } },
  GetTask: {
    type: 'object',
    required: ['task_id'],
    properties: { task_id: taskId, history_length: { type: 'integer', minimum: 0, maximum: 1000 } },
  },
  ListTasks: {
    type: 'object',
    properties: {
      page_size: { type: 'integer', minimum: 1, maximum: 500 },
      page_token: { type: ['string', 'null'], maxLength: 256 },
      filter: {
        type: ['object', 'null'],
        additionalProperties: false,
        properties: { state: { type: 'string' }, context_id: { type: 'string' } },
      },
    },
  },
  CancelTask: { type: 'object', required: ['task_id'], properties: { task_id: taskId } },
  SubscribeToTask: { type: 'object', required: ['task_id'], properties: { task_id: taskId } },
  Unsubscribe: { type: 'object', required: ['task_id'], properties: { task_id: taskId } },
  UpdateServiceParameters: {
    type: 'object',
    required: ['service_parameters'],
    properties: { service_parameters: { type: 'object', maxProperties: 64 } },
  },
  ping: { type: 'object', properties: { client_ts: { type: 'string' } } },
  SetTaskPushNotificationConfig: { type: 'object' },
  GetTaskPushNotificationConfig: { type: 'object' },
  ListTaskPushNotificationConfig: { type: 'object' },
  DeleteTaskPushNotificationConfig: { type: 'object' },
  'pty.join_session': {
    type: 'object',
    additionalProperties: false,
    properties: {
      role: { enum: ['controller', 'observer'] },
      cols: dimension,
      rows: dimension,
      client_label: { type: 'string', maxLength: 128 },
      session_id: { type: 'string' },
      session_backend: backend,
      backend,
      session_class: { enum: ['direct', 'managed'] },
      argv: { type: 'array', minItems: 1, maxItems: 256, items: { type: 'string', maxLength: 4096 } },
      command: { type: 'string', minLength: 1, maxLength: 65536 },
      cwd: { type: 'string', maxLength: 4096 },
      working_dir: { type: 'string', maxLength: 4096 },
      env: { type: 'object', maxProperties: 256, additionalProperties: { type: 'string', maxLength: 32768 } },
      terminal_size: {
        type: 'object',
        required: ['cols', 'rows'],
        additionalProperties: false,
        properties: { cols: dimension, rows: dimension },
      },
    },
  },
  'pty.leave_session': { type: 'object', additionalProperties: false, properties: { session_id: { type: 'string' } } },
  'pty.session_input': {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: { data: { type: 'string', pattern: BASE64_PATTERN }, session_id: { type: 'string' } },
  },
  'pty.session_resize': {
    type: 'object',
    required: ['cols', 'rows'],
    additionalProperties: false,
    properties: { cols: dimension, rows: dimension, session_id: { type: 'string' } },
  },
  'pty.request_role': {
    type: 'object',
    required: ['role'],
    additionalProperties: false,
    properties: { role: { enum: ['controller', 'observer'] }, session_id: { type: 'string' } },
  },
  'pty.release_role': empty,
  'pty.request_keyframe': empty,
};
