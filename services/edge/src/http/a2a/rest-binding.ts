import {
  A2aError,
  parseCancelTask,
  parseGetTask,
  parseListPushConfigs,
  parseListTasks,
  parsePushConfig,
  parsePushConfigRef,
  parseSendMessage,
  parseSubscribe,
  renderEvent,
  renderList,
  renderSendResult,
  renderTask,
  type A2aOperations,
  type CallContext,
  type JsonDialect,
  type StreamEvent,
} from '@pty-ws/a2a';
import { restErrorBody, writeJson } from './a2a-respond';
import type { HttpCall } from './http-call';
import { streamSse } from './sse';

type Body = () => Promise<unknown>;

interface Route {
  method: string;
  /** Matched against the percent-encoded path; captures are decoded. */
  pattern: RegExp;
  run(ops: A2aOperations, call: HttpCall, ctx: CallContext, args: string[], body: Body, d: JsonDialect): Promise<void>;
}

const ID = '([^/:]+)';
const ok = (call: HttpCall, body: unknown) => writeJson(call, 200, body);
/** Query parameters as a params object (both spellings accepted by the parsers). */
const queryOf = (call: HttpCall) => Object.fromEntries(call.query.entries());

/** A2A v1.0 HTTP+JSON routes below `/agents/{instance}/a2a/v1`. */
const ROUTES: Route[] = [
  {
    method: 'POST',
    pattern: /^\/message:send$/,
    run: async (ops, call, ctx, _a, body, d) =>
      ok(call, renderSendResult(await ops.sendMessage(parseSendMessage(await body()), ctx), d)),
  },
  {
    method: 'POST',
    pattern: /^\/message:stream$/,
    run: async (ops, call, ctx, _a, body, d) =>
      stream(call, ops.sendStreamingMessage(parseSendMessage(await body()), ctx), d),
  },
  {
    method: 'GET',
    pattern: /^\/tasks$/,
    run: async (ops, call, ctx, _a, _b, d) =>
      ok(call, renderList(await ops.listTasks(parseListTasks(queryOf(call)), ctx), d)),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}$`),
    run: async (ops, call, ctx, [id], _b, d) =>
      ok(call, renderTask(await ops.getTask(parseGetTask(queryOf(call), id), ctx), d)),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/tasks/${ID}:cancel$`),
    run: async (ops, call, ctx, [id], body, d) =>
      ok(call, renderTask(await ops.cancelTask(parseCancelTask(await body(), id), ctx), d)),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/tasks/${ID}:subscribe$`),
    run: async (ops, call, ctx, [id], _b, d) => stream(call, ops.subscribeToTask(parseSubscribe({}, id), ctx), d),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}:subscribe$`),
    run: async (ops, call, ctx, [id], _b, d) => stream(call, ops.subscribeToTask(parseSubscribe({}, id), ctx), d),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/tasks/${ID}/pushNotificationConfigs$`),
    run: async (ops, call, ctx, [id], body) =>
      ok(call, await ops.setTaskPushNotificationConfig(parsePushConfig(await body(), id), ctx)),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}/pushNotificationConfigs$`),
    run: async (ops, call, ctx, [id]) =>
      ok(call, await ops.listTaskPushNotificationConfigs(parseListPushConfigs(queryOf(call), id), ctx)),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}/pushNotificationConfigs/${ID}$`),
    run: async (ops, call, ctx, [taskId, configId]) =>
      ok(
        call,
        await ops.getTaskPushNotificationConfig(parsePushConfigRef({}, { taskId: taskId!, configId: configId! }), ctx),
      ),
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^/tasks/${ID}/pushNotificationConfigs/${ID}$`),
    run: async (ops, call, ctx, [taskId, configId]) => {
      await ops.deleteTaskPushNotificationConfig(parsePushConfigRef({}, { taskId: taskId!, configId: configId! }), ctx);
      writeJson(call, 204, undefined);
    },
  },
];

/** Serves one HTTP+JSON request; every failure becomes an AIP-193 error body. */
export async function serveRest(
  ops: A2aOperations,
  call: HttpCall,
  ctx: CallContext,
  dialect: JsonDialect,
  body: Body,
): Promise<void> {
  const path = call.path.split('?')[0] ?? '';
  let allowed = false;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    allowed = true;
    if (route.method !== call.method) continue;
    const args = m.slice(1).map((s) => decodeURIComponent(s));
    return route.run(ops, call, ctx, args as [string, ...string[]], body, dialect);
  }
  if (allowed)
    throw new A2aError('UnsupportedOperation', `${call.method} is not allowed on ${path}`, { http_status: 405 });
  throw new A2aError('MethodNotFound', `no A2A HTTP+JSON endpoint at ${path || '/'}`);
}

export function sendRestError(call: HttpCall, err: A2aError): void {
  const status = err.data?.['http_status'] === 405 ? 405 : err.httpStatus;
  // Rate limits say when to come back, like the 429 of an attach upgrade.
  const retry = err.type === 'RateLimited' ? err.data?.['retry_after_s'] : undefined;
  writeJson(call, status, restErrorBody(err), typeof retry === 'number' ? { 'retry-after': String(retry) } : {});
}

/**
 * Streams as SSE: the first event is pulled before any byte is written, so a request that fails
 * up front (unknown task, no scope) gets a plain JSON error response with its status code.
 */
function stream(call: HttpCall, events: AsyncIterable<StreamEvent>, d: JsonDialect): Promise<void> {
  return streamSse(
    call,
    events,
    (e) => renderEvent(e, d),
    (err) => ({ data: restErrorBody(A2aError.from(err)), event: 'error' }),
  );
}
