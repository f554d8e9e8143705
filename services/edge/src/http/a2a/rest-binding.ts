import { tryDecodePathSegment } from '@pty-ws/protocol';
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
  renderA2a as R,
  type A2aOperations,
  type CallContext,
  type StreamEvent,
} from '@pty-ws/a2a';
import { restErrorBody, writeJson } from './a2a-respond';
import type { HttpCall } from './http-call';
import { noExtendedCard } from './jsonrpc-binding';
import { streamSse } from './sse';

type Body = () => Promise<unknown>;

interface Route {
  method: string;
  /** Matched against the percent-encoded path; captures are decoded. */
  pattern: RegExp;
  run(ops: A2aOperations, call: HttpCall, ctx: CallContext, args: string[], body: Body): Promise<void>;
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
    run: async (ops, call, ctx, _a, body) =>
      ok(call, R.sendResult(await ops.sendMessage(parseSendMessage(await body()), ctx))),
  },
  {
    method: 'POST',
    pattern: /^\/message:stream$/,
    run: async (ops, call, ctx, _a, body) =>
      stream(call, ops.sendStreamingMessage(parseSendMessage(await body()), ctx)),
  },
  {
    method: 'GET',
    pattern: /^\/tasks$/,
    run: async (ops, call, ctx) => ok(call, R.list(await ops.listTasks(parseListTasks(queryOf(call)), ctx))),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}$`),
    run: async (ops, call, ctx, [id]) => ok(call, R.task(await ops.getTask(parseGetTask(queryOf(call), id), ctx))),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/tasks/${ID}:cancel$`),
    run: async (ops, call, ctx, [id], body) =>
      ok(call, R.task(await ops.cancelTask(parseCancelTask(await body(), id), ctx))),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/tasks/${ID}:subscribe$`),
    run: async (ops, call, ctx, [id]) => stream(call, ops.subscribeToTask(parseSubscribe({}, id), ctx)),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}:subscribe$`),
    run: async (ops, call, ctx, [id]) => stream(call, ops.subscribeToTask(parseSubscribe({}, id), ctx)),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/tasks/${ID}/pushNotificationConfigs$`),
    run: async (ops, call, ctx, [id], body) =>
      ok(call, R.pushConfig(await ops.setTaskPushNotificationConfig(parsePushConfig(await body(), id), ctx))),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}/pushNotificationConfigs$`),
    run: async (ops, call, ctx, [id]) =>
      ok(call, R.pushConfigs(await ops.listTaskPushNotificationConfigs(parseListPushConfigs(queryOf(call), id), ctx))),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/tasks/${ID}/pushNotificationConfigs/${ID}$`),
    run: async (ops, call, ctx, [taskId, configId]) =>
      ok(
        call,
        R.pushConfig(
          await ops.getTaskPushNotificationConfig(
            parsePushConfigRef({}, { taskId: taskId!, configId: configId! }),
            ctx,
          ),
        ),
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
  { method: 'GET', pattern: /^\/extendedAgentCard$/, run: noExtendedCard },
];

/** Serves one HTTP+JSON request; every failure becomes an AIP-193 error body. */
export async function serveRest(ops: A2aOperations, call: HttpCall, ctx: CallContext, body: Body): Promise<void> {
  const path = call.path.split('?')[0] ?? '';
  let allowed = false;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    allowed = true;
    if (route.method !== call.method) continue;
    const args = m.slice(1).map((s) => {
      const decoded = tryDecodePathSegment(s);
      if (decoded === undefined) throw new A2aError('InvalidRequest', 'malformed percent-escape in the URL path');
      return decoded;
    });
    return route.run(ops, call, ctx, args as [string, ...string[]], body);
  }
  if (allowed)
    throw new A2aError('UnsupportedOperation', `${call.method} is not allowed on ${path}`, { http_status: 405 });
  throw new A2aError('MethodNotFound', `no A2A HTTP+JSON endpoint at ${path || '/'}`);
}

export function sendRestError(call: HttpCall, err: A2aError): void {
  const status = err.data?.['http_status'] === 405 ? 405 : err.httpStatus;
  // Rate limits and outages say when to come back, like the 429/503 of an attach upgrade.
  const retry = err.retryAfterS;
  writeJson(call, status, restErrorBody(err), typeof retry === 'number' ? { 'retry-after': String(retry) } : {});
}

/**
 * Streams as SSE: the first event is pulled before any byte is written, so a request that fails
 * up front (unknown task, no scope) gets a plain JSON error response with its status code.
 */
function stream(call: HttpCall, events: AsyncIterable<StreamEvent>): Promise<void> {
  return streamSse(call, events, R.event, (err) => ({ data: restErrorBody(A2aError.from(err)), event: 'error' }));
}
