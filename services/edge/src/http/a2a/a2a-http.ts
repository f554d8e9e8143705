import { A2aError, checkA2aVersion, type A2aOperations, type CallContext } from '@pty-ws/a2a';
import { bearerFromHeader, type Authenticator, type Principal } from '../../auth';
import type { RequestGate } from '../../limits/request-gate';
import type { Logger } from '../../logger';
import type { TransportPolicy, TransportVerdict } from '../../transport';
import type { HttpRequest, HttpResponse, TemplatedApp } from '../../uws';
import { transportOf } from '../transport-gate';
import { jsonContentType, snapshotCall, A2A_BODY_LIMIT, type HttpCall } from './http-call';
import { parseEnvelope, sendJsonRpcError, serveJsonRpc } from './jsonrpc-binding';
import { sendRestError, serveRest } from './rest-binding';

export interface A2aHttpDeps {
  ops: A2aOperations;
  auth: Authenticator;
  /** The instance this edge serves; other instances' URLs are 404. */
  instanceId: string;
  logger: Logger;
  /** Plain-http refusal and mTLS identities, as for the REST API; absent: every transport. */
  transport?: TransportPolicy;
  /** Per-principal and per-instance request limits (429 RATE_LIMITED past them); absent: none. */
  admit?: RequestGate;
}

/** Where the bindings of an instance live (the AgentCard advertises the same paths). */
export const a2aRestBase = (instanceId: string) => `/agents/${encodeURIComponent(instanceId)}/a2a/v1`;
export const a2aJsonRpcPath = (instanceId: string) => `/agents/${encodeURIComponent(instanceId)}/a2a/jsonrpc`;

/**
 * The A2A HTTP+JSON/REST (`/agents/{instance}/a2a/v1/...`) and JSON-RPC 2.0
 * (`/agents/{instance}/a2a/jsonrpc`) bindings: transport only. Each request is authenticated
 * with the same bearer tokens as the REST API and pty-ws/v1, turned into a CallContext and
 * handed to the A2A core, whose answer or A2aError is written back in the binding's format.
 */
export function mountA2aHttp(app: TemplatedApp, deps: A2aHttpDeps): void {
  // Everything read from `req` is read here, synchronously (see HttpCall).
  const accept = (res: HttpResponse, req: HttpRequest, base: string) => {
    const verdict = transportOf(deps.transport, res, req);
    return { call: snapshotCall(res, req, base), verdict };
  };
  app.any('/agents/:instance/a2a/v1/*', (res, req) => {
    const { call, verdict } = accept(res, req, `/agents/${req.getParameter(0) ?? ''}/a2a/v1`);
    void rest(deps, call, verdict);
  });
  // With a trailing slash too: many clients append one to the endpoint URL they were given.
  for (const path of ['/agents/:instance/a2a/jsonrpc', '/agents/:instance/a2a/jsonrpc/']) {
    app.any(path, (res, req) => {
      const { call, verdict } = accept(res, req, req.getUrl());
      void jsonRpc(deps, call, verdict);
    });
  }
}

async function rest(deps: A2aHttpDeps, call: HttpCall, verdict: TransportVerdict): Promise<void> {
  try {
    knownInstance(deps, call);
    const principal = await authenticate(deps, call, verdict);
    deps.admit?.(principal.id, deps.instanceId);
    checkA2aVersion(call.a2aVersion); // A2A §3.2.6
    const body = async (): Promise<unknown> => {
      if (!jsonContentType(call.contentType)) {
        throw new A2aError(
          'ContentTypeNotSupported',
          `request bodies must be application/json, not ${call.contentType}`,
        );
      }
      const text = await bodyText(call);
      if (text.trim() === '') return {};
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new A2aError('ParseError', 'the request body is not valid JSON');
      }
    };
    await serveRest(deps.ops, call, contextOf(deps, call, verdict, principal, []), body);
  } catch (err) {
    sendRestError(call, failure(deps, call, err));
  }
}

async function jsonRpc(deps: A2aHttpDeps, call: HttpCall, verdict: TransportVerdict): Promise<void> {
  let id: string | number | null = null;
  try {
    if (call.method !== 'POST') throw new A2aError('InvalidRequest', 'JSON-RPC requests are POSTed');
    // Credentials first, from the headers: an anonymous caller's body is never waited for nor
    // buffered (its connection closes with the answer), and it learns nothing about what it sent.
    const principal = await authenticate(deps, call, verdict);
    deps.admit?.(principal.id, deps.instanceId);
    checkA2aVersion(call.a2aVersion); // A2A §3.2.6
    const text = await bodyText(call);
    const envelope = parseEnvelope(text);
    id = envelope.ok ? envelope.req.id : envelope.id;
    knownInstance(deps, call);
    if (!jsonContentType(call.contentType)) {
      throw new A2aError(
        'ContentTypeNotSupported',
        `JSON-RPC bodies must be application/json, not ${call.contentType}`,
      );
    }
    if (!envelope.ok) throw envelope.err;
    const ctx = contextOf(deps, call, verdict, principal, envelope.req.extensions);
    await serveJsonRpc(deps.ops, call, envelope.req, ctx);
  } catch (err) {
    sendJsonRpcError(call, id, failure(deps, call, err));
  }
}

function knownInstance(deps: A2aHttpDeps, call: HttpCall): void {
  if (call.instanceId === undefined) throw new A2aError('InvalidRequest', 'malformed percent-escape in the URL path');
  if (call.instanceId !== deps.instanceId) {
    throw new A2aError('MethodNotFound', `instance '${call.instanceId}' is not served here`);
  }
}

async function authenticate(deps: A2aHttpDeps, call: HttpCall, verdict: TransportVerdict): Promise<Principal> {
  if (!verdict.ok) throw new A2aError('PermissionDenied', verdict.message);
  return deps.auth.authenticate(bearerFromHeader(call.authorization), verdict.certificate, verdict.remoteAddress);
}

async function bodyText(call: HttpCall): Promise<string> {
  try {
    return await call.body;
  } catch {
    throw new A2aError('InvalidRequest', `the request body exceeds ${A2A_BODY_LIMIT} bytes`);
  }
}

function contextOf(
  deps: A2aHttpDeps,
  call: HttpCall,
  verdict: TransportVerdict,
  principal: Principal,
  bodyExt: string[],
): CallContext {
  const extensions = [...call.extensions, ...bodyExt];
  const traceId = call.serviceParameters?.['trace_id'];
  return {
    principal,
    instanceId: deps.instanceId,
    ...(extensions.length > 0 ? { requestedExtensions: extensions } : {}),
    ...(call.serviceParameters ? { serviceParameters: call.serviceParameters } : {}),
    ...(typeof traceId === 'string' ? { traceId } : {}),
    signal: call.abort.signal,
    ...(verdict.ok && verdict.remoteAddress ? { sourceAddress: verdict.remoteAddress } : {}),
  };
}

function failure(deps: A2aHttpDeps, call: HttpCall, err: unknown): A2aError {
  const e = A2aError.from(err);
  if (e.type === 'Internal') {
    deps.logger.error(
      { method: call.method, path: call.path, err: (err as Error)?.stack ?? String(err) },
      'a2a request failed',
    );
  }
  return e;
}
