import type { A2aError } from '@pty-ws/a2a';
import type { HttpResponse } from '../../uws';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export interface Out {
  res: HttpResponse;
  aborted: boolean;
}

export function writeJson(out: Out, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (out.aborted) return;
  out.aborted = true; // a response is written once
  out.res.cork(() => {
    out.res.writeStatus(`${status} ${STATUS_TEXT[status] ?? ''}`);
    out.res.writeHeader('cache-control', 'no-store');
    for (const [k, v] of Object.entries(headers)) out.res.writeHeader(k, v);
    if (status === 204) {
      out.res.end();
      return;
    }
    out.res.writeHeader('content-type', 'application/json');
    out.res.end(JSON.stringify(body));
  });
}

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
const A2A_DOMAIN = 'a2a-protocol.org';

/**
 * The HTTP+JSON error body: google.rpc.Status as AIP-193 writes it (what A2A v1.0 REST clients
 * parse: `details[].reason`), plus the canonical `a2a_error` object pty-ws/v1 sends in its
 * Error frames, so clients of both bindings can route on the same object.
 */
export function restErrorBody(err: A2aError): unknown {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(err.data ?? {})) metadata[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return {
    error: {
      code: err.httpStatus,
      status: err.status,
      message: err.message,
      details: [{ '@type': ERROR_INFO, reason: err.reason, domain: A2A_DOMAIN, metadata }],
      a2a_error: err.toA2AError(),
    },
  };
}

/** A JSON-RPC 2.0 error object; `data` names the A2A error for clients that route on names. */
export function jsonRpcError(err: A2aError): { code: number; message: string; data: Record<string, unknown> } {
  return {
    code: err.jsonRpcCode,
    message: err.message,
    data: { type: err.type, reason: err.reason, ...(err.data ?? {}) },
  };
}
