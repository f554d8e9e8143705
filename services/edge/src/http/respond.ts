import { BindingError, MAX_JSON_DEPTH, errorPayload, jsonTooDeep, type BindingErrorCode } from '@pty-ws/protocol';
import { isDependencyUnavailable } from '@pty-ws/ports';
import type { HttpResponse } from '../uws';
import { PROCESS_BODY_BUDGET, type BodyBudget } from './body-budget';
import { trackingOf } from './response-tracking';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** `200 OK`: the status line uWS writes (its own table has none). */
export function statusLine(status: number): string {
  return `${status} ${STATUS_TEXT[status] ?? ''}`;
}

/** Tracks whether the client went away: uWS forbids touching an aborted response. */
export interface Responder {
  res: HttpResponse;
  aborted: boolean;
  /** Runs once when the client goes away (a long poll stops waiting); uWS allows one abort handler. */
  onAbort?: () => void;
}

export function responder(res: HttpResponse): Responder {
  const r: Responder = { res, aborted: false };
  res.onAborted(() => {
    r.aborted = true;
    r.onAbort?.();
  });
  return r;
}

/** A JSON response (204: no body and no content type). */
export function sendJson(r: Responder, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (r.aborted) return;
  r.res.cork(() => {
    r.res.writeStatus(statusLine(status));
    if (status !== 204) r.res.writeHeader('content-type', 'application/json');
    r.res.writeHeader('cache-control', 'no-store');
    for (const [k, v] of Object.entries(headers)) r.res.writeHeader(k, v);
    r.res.end(status === 204 ? undefined : JSON.stringify(body));
  });
}

export function sendText(r: Responder, status: number, body: string, contentType: string): void {
  if (r.aborted) return;
  r.res.cork(() => {
    r.res.writeStatus(statusLine(status));
    r.res.writeHeader('content-type', contentType);
    r.res.writeHeader('cache-control', 'no-store');
    r.res.end(body);
  });
}

/** The JSON error body every endpoint uses: `{error: {code, message, a2a_error, retryable}}`. */
export function sendError(r: Responder, code: BindingErrorCode, message: string, status?: number): void {
  const err = new BindingError(code, message);
  sendJson(r, status ?? err.httpStatus, { error: errorPayload(code, message) });
}

/** A thrown error as its JSON answer; a dependency outage is 503 with Retry-After. */
export function sendCaught(r: Responder, err: unknown): void {
  if (isDependencyUnavailable(err)) {
    sendJson(r, err.httpStatus, { error: err.toPayload() }, { 'retry-after': String(err.retryAfterS) });
  } else if (err instanceof BindingError) {
    sendJson(r, err.httpStatus, { error: err.toPayload() });
  } else {
    sendError(r, 'INTERNAL', 'internal server error');
  }
}

/** The process's body budget is spent: the request is refused rather than buffered. */
export class BodyBudgetExceeded extends BindingError {
  constructor() {
    super('RATE_LIMITED', 'the server is buffering too many request bodies; retry later');
  }
}

/**
 * Reads a request body as text, up to `limit` bytes; past it, rejects with `tooLarge()`, and
 * with BodyBudgetExceeded (429) when the process buffers too much body data already. Call it
 * synchronously from the route handler: uWS delivers chunks only to an `onData` attached there.
 * A response written before the body is complete closes the connection (response-tracking.ts).
 */
export function readText(
  res: HttpResponse,
  limit: number,
  tooLarge: () => Error,
  budget: BodyBudget = PROCESS_BODY_BUDGET,
): Promise<string> {
  const tracking = trackingOf(res);
  if (tracking) tracking.bodyPending = true;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const finish = () => {
      budget.give(size);
      if (tracking) tracking.bodyPending = false;
    };
    // Only a tracked response takes several onAborted handlers (a bare one would lose the responder's).
    tracking?.onAborted(() => {
      if (failed) return;
      failed = true;
      finish();
    });
    res.onData((ab, isLast) => {
      if (failed) return;
      const refused =
        size + ab.byteLength > limit ? tooLarge() : budget.take(ab.byteLength) ? undefined : new BodyBudgetExceeded();
      if (refused) {
        failed = true;
        finish();
        if (tracking) tracking.bodyPending = true; // the rest is not read: close after the answer
        reject(refused);
        return;
      }
      size += ab.byteLength;
      chunks.push(Buffer.from(ab.slice(0)));
      if (isLast) {
        failed = true; // done: later callbacks are no-ops
        finish();
        resolve(Buffer.concat(chunks).toString('utf8'));
      }
    });
  });
}

/** Reads a JSON body up to `limit` bytes; rejects INVALID_REQUEST on overflow or bad JSON. */
export async function readJson(r: Responder, limit: number): Promise<unknown> {
  const text = await readText(
    r.res,
    limit,
    () => new BindingError('INVALID_REQUEST', `request body exceeds ${limit} bytes`),
  );
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BindingError('INVALID_REQUEST', 'request body is not valid JSON');
  }
  if (jsonTooDeep(value)) throw new BindingError('INVALID_REQUEST', `request body nests deeper than ${MAX_JSON_DEPTH}`);
  return value;
}
