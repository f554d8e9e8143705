import {
  A2aError,
  STREAMING_METHODS,
  UNARY_METHODS as M,
  renderA2a as R,
  type A2aOperations,
  type CallContext,
  type StreamEvent,
} from '@pty-ws/a2a';
import { jsonRpcError, writeJson } from './a2a-respond';
import type { HttpCall } from './http-call';
import { streamSse } from './sse';

type Id = string | number | null;
type Params = Record<string, unknown>;

type Unary = (ops: A2aOperations, p: Params, ctx: CallContext) => Promise<unknown>;
type Streaming = (ops: A2aOperations, p: Params, ctx: CallContext) => AsyncIterable<StreamEvent>;

/** The core's methods, results in A2A v1.0 JSON. */
const UNARY: Record<string, Unary> = {
  SendMessage: async (ops, p, ctx) => R.sendResult(await M.SendMessage(ops, p, ctx)),
  GetTask: async (ops, p, ctx) => R.task(await M.GetTask(ops, p, ctx)),
  ListTasks: async (ops, p, ctx) => R.list(await M.ListTasks(ops, p, ctx)),
  CancelTask: async (ops, p, ctx) => R.task(await M.CancelTask(ops, p, ctx)),
  SetTaskPushNotificationConfig: async (ops, p, ctx) =>
    R.pushConfig(await M.SetTaskPushNotificationConfig(ops, p, ctx)),
  GetTaskPushNotificationConfig: async (ops, p, ctx) =>
    R.pushConfig(await M.GetTaskPushNotificationConfig(ops, p, ctx)),
  ListTaskPushNotificationConfigs: async (ops, p, ctx) =>
    R.pushConfigs(await M.ListTaskPushNotificationConfigs(ops, p, ctx)),
  DeleteTaskPushNotificationConfig: M.DeleteTaskPushNotificationConfig,
  GetExtendedAgentCard: noExtendedCard,
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
export async function serveJsonRpc(ops: A2aOperations, call: HttpCall, req: Envelope, ctx: CallContext): Promise<void> {
  const method = ALIASES[req.method] ?? req.method;
  const { extensions: _activation, ...params } = req.params;
  const unary = UNARY[method];
  if (unary) {
    const result = await unary(ops, params, ctx);
    return writeJson(call, 200, { jsonrpc: '2.0', id: req.id, result });
  }
  const streaming = STREAMING[method];
  if (!streaming) throw new A2aError('MethodNotFound', `method '${req.method}' not found`);
  // A failure before the first event rejects here: a plain JSON-RPC error response.
  await streamSse(
    call,
    streaming(ops, params, ctx),
    (e) => ({ jsonrpc: '2.0', id: req.id, result: R.event(e) }),
    (err) => ({ data: { jsonrpc: '2.0', id: req.id, error: jsonRpcError(A2aError.from(err)) } }),
  );
}

/** The card says `extendedAgentCard: false`: the method exists, the card does not (A2A §3.1.11). */
export async function noExtendedCard(): Promise<never> {
  return Promise.reject(new A2aError('ExtendedAgentCardNotConfigured', 'this agent has no extended AgentCard'));
}

/** Refusals the transport decides, sent with their HTTP status; every other error travels with 200. */
const TRANSPORT_REFUSALS = new Set(['Unauthenticated', 'PermissionDenied', 'RateLimited', 'Unavailable']);

/**
 * JSON-RPC errors travel with HTTP 200 (the error is in the body), except the ones the transport
 * decides: 401/403 for credentials, 429 (with Retry-After) past a rate limit, 503 (with
 * Retry-After) while a store or the log is unreachable.
 */
export function sendJsonRpcError(call: HttpCall, id: Id, err: A2aError): void {
  const status = TRANSPORT_REFUSALS.has(err.type) ? err.httpStatus : 200;
  const retry = err.retryAfterS;
  const headers: Record<string, string> = typeof retry === 'number' ? { 'retry-after': String(retry) } : {};
  writeJson(call, status, { jsonrpc: '2.0', id, error: jsonRpcError(err) }, headers);
}
