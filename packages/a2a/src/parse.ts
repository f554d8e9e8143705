import type { DataPart, Message, Part, Role } from '@pty-ws/protocol';
import { MAX_JSON_DEPTH, jsonTooDeep } from '@pty-ws/protocol';
import { A2aError } from './a2a-error';
import type {
  AuthenticationInfo,
  CancelTaskParams,
  GetTaskParams,
  ListTaskPushNotificationConfigsParams,
  ListTasksParams,
  PushNotificationConfigRef,
  SendMessageConfiguration,
  SendMessageParams,
  SubscribeToTaskParams,
  TaskPushNotificationConfig,
} from './a2a-operations';

/**
 * Request JSON → typed params, for every JSON binding. Field names are accepted in both ProtoJSON
 * spellings (`task_id` and `taskId`: parsers must accept both), so the official A2A clients
 * (camelCase) and pty-ws callers (snake_case, as on the WebSocket wire) are served alike.
 * Anything of the wrong type is InvalidParams naming the field.
 */
export type Json = Record<string, unknown>;

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The value of a field under its snake_case or camelCase name. */
export function field(obj: Json, snake: string): unknown {
  const v = obj[snake];
  return v !== undefined && v !== null ? v : obj[camel(snake)];
}

export function asObject(value: unknown, what: string): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new A2aError('InvalidParams', `${what} must be a JSON object`);
  }
  return value as Json;
}

function optObject(obj: Json, name: string): Json | undefined {
  const v = field(obj, name);
  return v === undefined || v === null ? undefined : asObject(v, `'${name}'`);
}

function optString(obj: Json, name: string, max = 4096): string | undefined {
  const v = field(obj, name);
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > max) {
    throw new A2aError('InvalidParams', `'${name}' must be a string of at most ${max} characters`);
  }
  return v;
}

function reqString(obj: Json, name: string, max = 4096): string {
  const v = optString(obj, name, max);
  if (v === undefined) throw new A2aError('InvalidParams', `'${name}' is required`);
  return v;
}

/** Integers may arrive as JSON numbers or (query strings, int64 ProtoJSON) as decimal strings. */
function optInt(obj: Json, name: string, min: number, max: number): number | undefined {
  let v = field(obj, name);
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) v = Number(v);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new A2aError('InvalidParams', `'${name}' must be an integer in ${min}..${max}`);
  }
  return v;
}

function optBool(obj: Json, name: string): boolean | undefined {
  const v = field(obj, name);
  if (v === undefined || v === null) return undefined;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw new A2aError('InvalidParams', `'${name}' must be a boolean`);
}

function optStrings(obj: Json, name: string): string[] | undefined {
  const v = field(obj, name);
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) {
    throw new A2aError('InvalidParams', `'${name}' must be an array of strings`);
  }
  return v as string[];
}

// ---- messages ---------------------------------------------------------------------------------

const ROLES: Readonly<Record<string, Role>> = {
  ROLE_USER: 'ROLE_USER',
  user: 'ROLE_USER',
  ROLE_AGENT: 'ROLE_AGENT',
  agent: 'ROLE_AGENT',
};

/** Accepts the lower-case A2A v0.3 role spelling some clients send (also on pty-ws/v1). */
export function normalizeRole(role: unknown): Role | undefined {
  return typeof role === 'string' ? ROLES[role] : undefined;
}

function part(value: unknown, i: number): Part {
  const where = `'message.parts[${i}]'`;
  const p = asObject(value, where);
  const metadata = optObject(p, 'metadata');
  // v0.3 nested files (`file: {name, mime_type, bytes, uri}`) become the v1.0 flat fields.
  const file = p['file'] === undefined ? undefined : asObject(p['file'], `${where}.file`);
  const filename = optString(p, 'filename') ?? (file && optString(file, 'name'));
  const mediaType =
    optString(p, 'media_type', 256) ??
    (file && (optString(file, 'mime_type', 256) ?? optString(file, 'media_type', 256)));
  const common = {
    ...(metadata ? { metadata } : {}),
    ...(filename !== undefined ? { filename } : {}),
    ...(mediaType !== undefined ? { media_type: mediaType } : {}),
  };
  const text = p['text'];
  if (text !== undefined) {
    if (typeof text !== 'string') throw new A2aError('InvalidParams', `${where}.text must be a string`);
    return { text, ...common };
  }
  if ('data' in p) return { data: p['data'] as DataPart['data'], ...common };
  const raw =
    optString(p, 'raw', Number.MAX_SAFE_INTEGER) ?? (file && optString(file, 'bytes', Number.MAX_SAFE_INTEGER));
  const url = optString(p, 'url', 65536) ?? (file && optString(file, 'uri', 65536));
  if (raw !== undefined) return { raw, ...common };
  if (url !== undefined) return { url, ...common };
  throw new A2aError('InvalidParams', `${where} has none of text, raw, url, data`);
}

/** A2A Message JSON (either spelling) → the pty-ws wire Message. */
export function parseMessage(value: unknown): Message {
  // Every binding's messages come through here (gRPC Structs too): refuse what later walks would choke on.
  if (jsonTooDeep(value)) throw new A2aError('InvalidParams', `'message' nests deeper than ${MAX_JSON_DEPTH} levels`);
  const m = asObject(value, "'message'");
  const messageId = reqString(m, 'message_id', 256);
  const rawRole = field(m, 'role');
  const role = rawRole === undefined || rawRole === 'ROLE_UNSPECIFIED' ? 'ROLE_USER' : normalizeRole(rawRole);
  if (!role) throw new A2aError('InvalidParams', "'message.role' must be ROLE_USER or ROLE_AGENT");
  const parts = field(m, 'parts');
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new A2aError('InvalidParams', "'message.parts' must be a non-empty array");
  }
  const contextId = optString(m, 'context_id', 256);
  const taskId = optString(m, 'task_id', 256);
  const metadata = optObject(m, 'metadata');
  const extensions = optStrings(m, 'extensions');
  const references = optStrings(m, 'reference_task_ids');
  return {
    message_id: messageId,
    role,
    parts: parts.map(part),
    ...(contextId !== undefined ? { context_id: contextId } : {}),
    ...(taskId !== undefined ? { task_id: taskId } : {}),
    ...(metadata ? { metadata } : {}),
    ...(extensions && extensions.length > 0 ? { extensions } : {}),
    ...(references && references.length > 0 ? { reference_task_ids: references } : {}),
  };
}

// ---- requests ---------------------------------------------------------------------------------

function authentication(obj: Json): AuthenticationInfo | undefined {
  const a = optObject(obj, 'authentication');
  if (!a) return undefined;
  // v1.0 has one `scheme`; v0.3 had a `schemes` list.
  const scheme = optString(a, 'scheme', 64) ?? optStrings(a, 'schemes')?.[0];
  if (!scheme || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(scheme)) {
    throw new A2aError('InvalidParams', "'authentication.scheme' must be an HTTP auth scheme such as Bearer");
  }
  const credentials = optString(a, 'credentials', 8192);
  if (credentials !== undefined && /[\r\n]/.test(credentials)) {
    throw new A2aError('InvalidParams', "'authentication.credentials' must be one line");
  }
  return credentials !== undefined ? { scheme, credentials } : { scheme };
}

/** A push notification config: v1.0 flat shape, or v0.3's nested `push_notification_config`. */
export function parsePushConfig(value: unknown, taskIdFromPath?: string): TaskPushNotificationConfig {
  const outer = asObject(value, 'the push notification config');
  const inner = optObject(outer, 'push_notification_config') ?? outer;
  const taskId = taskIdFromPath ?? optString(outer, 'task_id', 256) ?? optString(inner, 'task_id', 256);
  const url = reqString(inner, 'url', 2048);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new A2aError('InvalidParams', "'url' must be an absolute URL");
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new A2aError('InvalidParams', "'url' must be an http or https URL");
  }
  const id = optString(inner, 'id', 256) ?? optString(outer, 'id', 256);
  const token = optString(inner, 'token', 4096);
  if (token !== undefined && /[\r\n]/.test(token)) throw new A2aError('InvalidParams', "'token' must be one line");
  const auth = authentication(inner);
  const tenant = optString(outer, 'tenant', 256);
  return {
    task_id: taskId ?? '',
    url,
    ...(id !== undefined ? { id } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(auth ? { authentication: auth } : {}),
    ...(tenant !== undefined ? { tenant } : {}),
  };
}

function configuration(obj: Json): SendMessageConfiguration | undefined {
  const c = optObject(obj, 'configuration');
  if (!c) return undefined;
  const accepted = optStrings(c, 'accepted_output_modes');
  const historyLength = optInt(c, 'history_length', 0, 1_000_000);
  const returnImmediately = optBool(c, 'return_immediately');
  const blocking = optBool(c, 'blocking');
  const pushValue = field(c, 'task_push_notification_config') ?? field(c, 'push_notification_config');
  const push = pushValue === undefined || pushValue === null ? undefined : parsePushConfig(pushValue);
  return {
    ...(accepted ? { accepted_output_modes: accepted } : {}),
    ...(historyLength !== undefined ? { history_length: historyLength } : {}),
    ...(returnImmediately !== undefined ? { return_immediately: returnImmediately } : {}),
    ...(blocking !== undefined ? { blocking } : {}),
    ...(push ? { task_push_notification_config: push } : {}),
  };
}

export function parseSendMessage(value: unknown): SendMessageParams {
  const body = asObject(value, 'the request');
  const message = parseMessage(field(body, 'message') ?? missing('message'));
  const config = configuration(body);
  const metadata = optObject(body, 'metadata');
  return { message, ...(config ? { configuration: config } : {}), ...(metadata ? { metadata } : {}) };
}

function missing(name: string): never {
  throw new A2aError('InvalidParams', `'${name}' is required`);
}

/** `id` (v1.0) or `task_id`/`name: tasks/{id}` spellings some clients use. */
function taskIdOf(obj: Json, fromPath?: string): string {
  if (fromPath !== undefined) return fromPath;
  const id = optString(obj, 'id', 256) ?? optString(obj, 'task_id', 256);
  if (id !== undefined) return id;
  const name = optString(obj, 'name', 512);
  const m = name ? /^tasks\/([^/]+)$/.exec(name) : null;
  if (m?.[1]) return m[1];
  return missing('id');
}

export function parseGetTask(value: unknown, idFromPath?: string): GetTaskParams {
  const o = asObject(value, 'the request');
  const historyLength = optInt(o, 'history_length', 0, 1_000_000);
  return { id: taskIdOf(o, idFromPath), ...(historyLength !== undefined ? { history_length: historyLength } : {}) };
}

export function parseCancelTask(value: unknown, idFromPath?: string): CancelTaskParams {
  const o = asObject(value, 'the request');
  const metadata = optObject(o, 'metadata');
  return { id: taskIdOf(o, idFromPath), ...(metadata ? { metadata } : {}) };
}

export function parseSubscribe(value: unknown, idFromPath?: string): SubscribeToTaskParams {
  return { id: taskIdOf(asObject(value, 'the request'), idFromPath) };
}

export function parseListTasks(value: unknown): ListTasksParams {
  const o = asObject(value, 'the request');
  const sessionId = optString(o, 'session_id', 256);
  const contextId = optString(o, 'context_id', 256);
  const status = optString(o, 'status', 64) ?? optString(o, 'state', 64);
  const pageSize = optInt(o, 'page_size', 1, 100);
  const pageToken = optString(o, 'page_token', 1024);
  const historyLength = optInt(o, 'history_length', 0, 1_000_000);
  const includeArtifacts = optBool(o, 'include_artifacts');
  return {
    ...(sessionId !== undefined ? { session_id: sessionId } : {}),
    ...(contextId !== undefined ? { context_id: contextId } : {}),
    ...(status !== undefined && status !== 'TASK_STATE_UNSPECIFIED' ? { status } : {}),
    ...(pageSize !== undefined ? { page_size: pageSize } : {}),
    ...(pageToken !== undefined ? { page_token: pageToken } : {}),
    ...(historyLength !== undefined ? { history_length: historyLength } : {}),
    ...(includeArtifacts !== undefined ? { include_artifacts: includeArtifacts } : {}),
  };
}

/** `{task_id, id}`, or the v0.3 / resource-name forms (`name: tasks/{t}/pushNotificationConfigs/{c}`). */
export function parsePushConfigRef(
  value: unknown,
  path?: { taskId: string; configId: string },
): PushNotificationConfigRef {
  if (path) return { task_id: path.taskId, id: path.configId };
  const o = asObject(value, 'the request');
  const name = optString(o, 'name', 1024);
  const m = name ? /^tasks\/([^/]+)\/pushNotificationConfigs\/([^/]+)$/.exec(name) : null;
  if (m?.[1] && m[2]) return { task_id: m[1], id: m[2] };
  // v0.3 named the task `id` and the config `pushNotificationConfigId`.
  const legacyConfigId = optString(o, 'push_notification_config_id', 256);
  if (legacyConfigId !== undefined) {
    return { task_id: optString(o, 'task_id', 256) ?? optString(o, 'id', 256) ?? missing('id'), id: legacyConfigId };
  }
  return { task_id: optString(o, 'task_id', 256) ?? missing('task_id'), id: optString(o, 'id', 256) ?? missing('id') };
}

export function parseListPushConfigs(value: unknown, taskIdFromPath?: string): ListTaskPushNotificationConfigsParams {
  const o = asObject(value, 'the request');
  const taskId = taskIdFromPath ?? optString(o, 'task_id', 256) ?? optString(o, 'id', 256) ?? missing('task_id');
  const pageSize = optInt(o, 'page_size', 1, 100);
  const pageToken = optString(o, 'page_token', 1024);
  return {
    task_id: taskId,
    ...(pageSize !== undefined ? { page_size: pageSize } : {}),
    ...(pageToken !== undefined ? { page_token: pageToken } : {}),
  };
}
