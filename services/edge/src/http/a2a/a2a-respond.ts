import type { A2aError } from '@pty-ws/a2a';
import { sendJson, type Responder } from '../respond';

/** A response written at most once: after it, `aborted` is set so nothing else is written. */
export type Out = Responder;

export function writeJson(out: Out, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (out.aborted) return;
  sendJson(out, status, body, headers);
  out.aborted = true; // a response is written once
}

/**
 * The HTTP+JSON error body: google.rpc.Status in ProtoJSON as AIP-193 writes it (A2A v1.0
 * §11.6), `details` holding the ErrorInfo (reason, domain, metadata) clients route on.
 */
export function restErrorBody(err: A2aError): unknown {
  return { error: { code: err.httpStatus, status: err.status, message: err.message, details: [err.errorInfo()] } };
}

/**
 * A JSON-RPC 2.0 error object (A2A v1.0 §9.5): the integer code, and in `data` the same list of
 * `google.protobuf.Any` details as REST, the ErrorInfo first.
 */
export function jsonRpcError(err: A2aError): { code: number; message: string; data: unknown[] } {
  return { code: err.jsonRpcCode, message: err.message, data: [err.errorInfo()] };
}
