import {
  A2aError,
  STREAMING_METHODS,
  UNARY_METHODS as M,
  renderEvent,
  renderList,
  renderSendResult,
  renderTask,
  type A2aOperations,
  type CallContext,
  type JsonDialect,
  type StreamEvent,
} from '@pty-ws/a2a';
import { jsonRpcError, writeJson } from './a2a-respond';
import type { HttpCall } from './http-call';
import { streamSse } from './sse';

type Id = string | number | null;
type Params = Record<string, unknown>;

type Unary = (ops: A2aOperations, p: Params, ctx: CallContext, d: JsonDialect) => Promise<unknown>;
type Streaming = (ops: A2aOperations, p: Params, ctx: CallContext) => AsyncIterable<StreamEvent>;

/** The core's methods, with results rendered in the request's JSON dialect where it has one. */
const UNARY: Record<string, Unary> = {
  SendMessage: async (ops, p, ctx, d) => renderSendResult(await M.SendMessage(ops, p, ctx), d),
  GetTask: async (ops, p, ctx, d) => renderTask(await M.GetTask(ops, p, ctx), d),
  ListTasks: async (ops, p, ctx, d) => renderList(await M.ListTasks(ops, p, ctx), d),
  CancelTask: async (ops, p, ctx, d) => renderTask(await M.CancelTask(ops, p, ctx), d),
  SetTaskPushNotificationConfig: M.SetTaskPushNotificationConfig,
  GetTaskPushNotificationConfig: M.GetTaskPushNotificationConfig,
  ListTaskPushNotificationConfigs: M.ListTaskPushNotificationConfigs,
  DeleteTaskPushNotificationConfig: M.DeleteTaskPushNotificationConfig,
};

const STREAMING: Record<string, Streaming> = STREAMING_METHODS;

/**
 * Other spellings of the same methods: the official SDK's `CreateTaskPushNotificationConfig` and
 * `ListTaskPushNotificationConfig`, and the A2A v0.3 slash names (`message/send`, …).
 */
const ALIASES: Record<string, string> = {
  CreateTaskPushNotificationConfig: 'SetTaskPushNotificationConfig',
  ListTaskPushNotificationConfig: 'ListTaskPushNotificationConfigs',
  'message/send': 'SendMessage',
  'message/stream': 'SendStreamingMessage',
  'tasks/get': 'GetTask',
  'tasks/list': 'ListTasks',
  'tasks/cancel': 'CancelTask',
  'tasks/resubscribe': 'SubscribeToTask',
  'tasks/subscribe': 'SubscribeToTask',
  'tasks/pushNotificationConfig/set': 'SetTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/get': 'GetTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/list': 'ListTaskPushNotificationConfigs',
  'tasks/pushNotificationConfig/delete': 'DeleteTaskPushNotificationConfig',
};

interface Envelope {
  id: Id;
  method: string;
  params: Params;
  /** Extensions activated in the body (`params.extensions` or top-level `extensions`). */
  extensions: string[];
}

/** Reads the JSON-RPC 2.0 request object; the id is kept even when the rest is invalid. */
export function parseEnvelope(text: string): { ok: true; req: Envelope } | { ok: false; id: Id; err: A2aError } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, id: null, err: new A2aError('ParseError', 'the request body is not valid JSON') };
  }
  if (Array.isArray(json)) {
    return { ok: false, id: null, err: new A2aError('InvalidRequest', 'batch requests are not supported') };
  }
  if (json === null || typeof json !== 'object') {
    return { ok: false, id: null, err: new A2aError('InvalidRequest', 'the request must be a JSON-RPC 2.0 object') };
  }
  const o = json as Record<string, unknown>;
  const rawId = o['id'];
  const id: Id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
  const invalid = (message: string) => ({ ok: false as const, id, err: new A2aError('InvalidRequest', message) });
  if (o['jsonrpc'] !== '2.0') return invalid('\'jsonrpc\' must be "2.0"');
  if (rawId === undefined) return invalid("'id' is required: every A2A method has a response");
  if (rawId !== null && typeof rawId !== 'string' && typeof rawId !== 'number') {
    return invalid("'id' must be a string, a number or null");
  }
  if (typeof o['method'] !== 'string') return invalid("'method' must be a string");
  const params = o['params'] === undefined ? {} : o['params'];
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    return { ok: false, id, err: new A2aError('InvalidParams', "'params' must be an object") };
  }
  const extensions = [o['extensions'], (params as Params)['extensions']]
    .flatMap((v) => (Array.isArray(v) ? v : []))
    .filter((s): s is string => typeof s === 'string');
  return { ok: true, req: { id, method: o['method'], params: params as Params, extensions } };
}

/** Serves one JSON-RPC request (already parsed): a JSON response, or SSE for streaming methods. */
export async function serveJsonRpc(
  ops: A2aOperations,
  call: HttpCall,
  req: Envelope,
  ctx: CallContext,
  dialect: JsonDialect,
): Promise<void> {
  const method = ALIASES[req.method] ?? req.method;
  const { extensions: _activation, ...params } = req.params;
  const unary = UNARY[method];
  if (unary) {
    const result = await unary(ops, params, ctx, dialect);
    return writeJson(call, 200, { jsonrpc: '2.0', id: req.id, result });
  }
  const streaming = STREAMING[method];
  if (!streaming) throw new A2aError('MethodNotFound', `method '${req.method}' not found`);
  // A failure before the first event rejects here: a plain JSON-RPC error response.
  await streamSse(
    call,
    streaming(ops, params, ctx),
    (e) => ({ jsonrpc: '2.0', id: req.id, result: renderEvent(e, dialect) }),
    (err) => ({ data: { jsonrpc: '2.0', id: req.id, error: jsonRpcError(A2aError.from(err)) } }),
  );
}

/**
 * JSON-RPC errors travel with HTTP 200 (the error is in the body), except the ones the transport
 * decides: 401/403 for credentials, 413 for an oversized body.
 */
export function sendJsonRpcError(call: HttpCall, id: Id, err: A2aError): void {
  const status = err.type === 'Unauthenticated' || err.type === 'PermissionDenied' ? err.httpStatus : 200;
  writeJson(call, status, { jsonrpc: '2.0', id, error: jsonRpcError(err) });
}
