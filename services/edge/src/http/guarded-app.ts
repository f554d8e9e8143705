import { BindingError, errorPayload } from '@pty-ws/protocol';
import { isDependencyUnavailable } from '@pty-ws/ports';
import type { Logger } from '../logger';
import type { HttpRequest, HttpResponse, TemplatedApp, WebSocketBehavior } from '../uws';
import type { HostPolicy } from './host-policy';
import { hasConflictingContentLength } from './request-head';
import { statusLine } from './respond';
import { trackResponse } from './response-tracking';

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'del', 'patch', 'options', 'head', 'connect', 'trace', 'any']);
const WS_CALLBACKS = ['upgrade', 'open', 'message', 'drain', 'close', 'ping', 'pong', 'subscription', 'dropped'];

/** A route handler, or a WebSocket upgrade handler with its third argument (the socket context). */
type RouteHandler = (res: HttpResponse, req: HttpRequest, ...rest: unknown[]) => unknown;

/**
 * The uWS app with every handler body guarded. A throw inside a uWS callback reaches the event
 * loop as an uncaught exception and ends the process (with every single-node session in it), so
 * no request, however malformed, may be able to throw there: the guard logs the failure and
 * answers 400 (a BindingError or URIError: the client's fault) or 500, if the response is still open.
 * Handlers that return a promise are guarded the same way when it rejects.
 */
export interface GuardOptions {
  tls?: boolean;
  /**
   * Requests received but not yet answered (PTYWS_MAX_HTTP_REQUESTS): past it a request is
   * answered 503 at once, before its headers are looked at. Streams count until their first byte.
   */
  maxPending?: number;
  /** Which `Host` names are served (DNS-rebinding guard): others get 403 before any route runs. */
  hosts?: HostPolicy;
}

export function guardApp(app: TemplatedApp, logger: Logger, opts: GuardOptions = {}): TemplatedApp {
  const extraHeaders = securityHeaders(opts.tls === true);
  const maxPending = opts.maxPending ?? Infinity;
  let pending = 0;
  const guardRoute =
    (pattern: string, handler: RouteHandler): RouteHandler =>
    (res, req, ...rest) => {
      withHeaders(res, extraHeaders);
      if (pending >= maxPending) return answerBusy(res);
      const refused = refusedHead(req, opts.hosts);
      if (refused) return answerFailure(res, refused, logger, pattern);
      pending++;
      trackResponse(res, () => pending--);
      const fail = (err: unknown) => answerFailure(res, err, logger, pattern);
      try {
        const out = handler(res, req, ...rest);
        if (out instanceof Promise) out.catch(fail);
      } catch (err) {
        fail(err);
      }
    };
  const guardWs = (pattern: string, behavior: WebSocketBehavior<unknown>): WebSocketBehavior<unknown> => {
    const guarded: Record<string, unknown> = { ...behavior };
    for (const name of WS_CALLBACKS) {
      const fn = (behavior as Record<string, unknown>)[name];
      if (typeof fn !== 'function') continue;
      guarded[name] =
        name === 'upgrade'
          ? guardRoute(pattern, fn as RouteHandler)
          : (...args: unknown[]) => {
              try {
                const out: unknown = (fn as (...a: unknown[]) => unknown)(...args);
                if (out instanceof Promise) out.catch((err: unknown) => logWs(logger, pattern, name, err));
              } catch (err) {
                logWs(logger, pattern, name, err);
              }
            };
    }
    return guarded as WebSocketBehavior<unknown>;
  };
  // Pass-through wrappers made once per method, not once per call.
  const passThrough = new Map<string | symbol, (...args: unknown[]) => unknown>();
  const wrapper: TemplatedApp = new Proxy(app, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (typeof prop === 'string' && ROUTE_METHODS.has(prop)) {
        return (pattern: string, handler: RouteHandler) => {
          fn.call(target, pattern, guardRoute(pattern, handler));
          return wrapper;
        };
      }
      if (prop === 'ws') {
        return (pattern: string, behavior: WebSocketBehavior<unknown>) => {
          fn.call(target, pattern, guardWs(pattern, behavior));
          return wrapper;
        };
      }
      let pass = passThrough.get(prop);
      if (!pass) {
        pass = (...args: unknown[]) => {
          const out = fn.apply(target, args);
          return out === target ? wrapper : out;
        };
        passThrough.set(prop, pass);
      }
      return pass;
    },
  });
  return wrapper;
}

/**
 * Headers every HTTP response carries: `nosniff` (a JSON or text answer is never sniffed into
 * HTML or script by a browser) and, under TLS, HSTS (browsers that once reached the edge over
 * https never fall back to plain http for it). A WebSocket upgrade's 101 carries none.
 */
function securityHeaders(tls: boolean): ReadonlyArray<readonly [string, string]> {
  const headers: Array<readonly [string, string]> = [['x-content-type-options', 'nosniff']];
  if (tls) headers.push(['strict-transport-security', 'max-age=31536000']);
  return headers;
}

/** Every response's status line is written through writeStatus: the headers follow it there. */
function withHeaders(res: HttpResponse, headers: ReadonlyArray<readonly [string, string]>): void {
  const writeStatus = res.writeStatus.bind(res);
  res.writeStatus = (status) => {
    writeStatus(status);
    for (const [k, v] of headers) res.writeHeader(k, v);
    return res;
  };
}

/** The checks every request's head must pass before any route sees it (every surface alike). */
function refusedHead(req: HttpRequest, hosts: HostPolicy | undefined): BindingError | undefined {
  if (hasConflictingContentLength(req)) {
    return new BindingError('INVALID_REQUEST', 'conflicting Content-Length headers');
  }
  const foreignHost = hosts?.check(req.getHeader('host'));
  if (foreignHost !== undefined) return new BindingError('PERMISSION_DENIED', foreignHost);
  return undefined;
}

function answerBusy(res: HttpResponse): void {
  res.cork(() => {
    res.writeStatus(statusLine(503));
    res.writeHeader('content-type', 'application/json');
    res.writeHeader('retry-after', '1');
    res.end(
      JSON.stringify({ error: errorPayload('RATE_LIMITED', 'too many requests in progress; retry later') }),
      true,
    );
  });
}

function answerFailure(res: HttpResponse, err: unknown, logger: Logger, pattern: string): void {
  const clientFault = err instanceof BindingError || err instanceof URIError;
  const status = err instanceof BindingError ? err.httpStatus : clientFault ? 400 : 500;
  if (!clientFault) logger.error({ route: pattern, err: (err as Error)?.stack ?? String(err) }, 'http handler failed');
  const body =
    err instanceof BindingError
      ? { error: err.toPayload() }
      : {
          error: errorPayload(
            clientFault ? 'INVALID_REQUEST' : 'INTERNAL',
            clientFault ? 'malformed request' : 'internal server error',
          ),
        };
  try {
    res.cork(() => {
      res.writeStatus(statusLine(status));
      res.writeHeader('content-type', 'application/json');
      res.writeHeader('cache-control', 'no-store');
      if (isDependencyUnavailable(err)) res.writeHeader('retry-after', String(err.retryAfterS));
      res.end(JSON.stringify(body));
    });
  } catch {
    // Already answered or aborted by the client: nothing left to tell.
  }
}

function logWs(logger: Logger, pattern: string, callback: string, err: unknown): void {
  logger.error(
    { route: pattern, where: callback, err: (err as Error)?.stack ?? String(err) },
    'websocket handler failed',
  );
}
