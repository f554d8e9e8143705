import { tryDecodePathSegment, type ServiceParameters } from '@pty-ws/protocol';
import type { HttpRequest, HttpResponse } from '../../uws';
import { readText } from '../respond';

/** Largest request body the A2A endpoints read (messages may carry inline file parts). */
export const A2A_BODY_LIMIT = 1024 * 1024;

/**
 * Everything of a uWS request the A2A bindings use, copied before the handler returns: uWS
 * invalidates `req` then, and delivers body chunks only to an `onData` attached synchronously.
 */
export interface HttpCall {
  res: HttpResponse;
  method: string;
  /** Path below the instance's A2A base, still percent-encoded (`/tasks/abc:cancel`). */
  path: string;
  query: URLSearchParams;
  /** Undefined when the path segment holds a malformed percent-escape (answered 400). */
  instanceId: string | undefined;
  authorization: string;
  contentType: string;
  accept: string;
  a2aVersion: string | undefined;
  extensions: string[];
  serviceParameters: ServiceParameters | undefined;
  /** Raw body text; rejects with 'too_large' past the limit. */
  body: Promise<string>;
  aborted: boolean;
  /** Fires when the client goes away (streams stop following the task). */
  readonly abort: AbortController;
}

export function snapshotCall(res: HttpResponse, req: HttpRequest, base: string): HttpCall {
  const abort = new AbortController();
  const url = req.getUrl();
  const call: HttpCall = {
    res,
    method: req.getMethod().toUpperCase(),
    path: url.slice(base.length),
    query: new URLSearchParams(req.getQuery() ?? ''),
    instanceId: tryDecodePathSegment(req.getParameter(0) ?? ''),
    authorization: req.getHeader('authorization'),
    contentType: req.getHeader('content-type'),
    accept: req.getHeader('accept'),
    a2aVersion: req.getHeader('a2a-version') || undefined,
    extensions: extensionsOf(req.getHeader('a2a-extensions'), req.getHeader('x-a2a-extensions')),
    serviceParameters: serviceParametersOf(req),
    body: Promise.resolve(''),
    aborted: false,
    abort,
  };
  res.onAborted(() => {
    call.aborted = true;
    abort.abort();
  });
  call.body = readBody(res, call.method);
  call.body.catch(() => undefined); // reported when awaited
  return call;
}

function readBody(res: HttpResponse, method: string): Promise<string> {
  if (method === 'GET' || method === 'DELETE' || method === 'HEAD') return Promise.resolve('');
  return readText(res, A2A_BODY_LIMIT, () => new Error('too_large'));
}

/** `A2A-Extensions: uri1, uri2` (and the legacy `X-A2A-Extensions`). */
function extensionsOf(...headers: string[]): string[] {
  return headers
    .flatMap((h) => h.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * A2A service parameters travel as HTTP headers on these bindings; the trace context is what
 * pty-ws propagates into task events (binding §9), as `trace_id` like pty-ws/v1 clients send it.
 */
function serviceParametersOf(req: HttpRequest): ServiceParameters | undefined {
  const traceparent = req.getHeader('traceparent');
  const traceId = req.getHeader('x-trace-id') || /^[\da-f]{2}-([\da-f]{32})-/.exec(traceparent)?.[1];
  if (!traceparent && !traceId) return undefined;
  return { ...(traceId ? { trace_id: traceId } : {}), ...(traceparent ? { traceparent } : {}) };
}

/** Whether the body's media type is one the JSON bindings read (absent counts as JSON). */
export function jsonContentType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === '' || type === 'application/json' || type === 'application/a2a+json';
}
