import type { A2aError } from '@pty-ws/a2a';
import { sendJson, type Responder } from '../respond';

/** A response written at most once: after it, `aborted` is set so nothing else is written. */
export type Out = Responder;

export function writeJson(out: Out, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (out.aborted) return;
  sendJson(out, status, body, headers);
  out.aborted = true; // a response is written once
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
