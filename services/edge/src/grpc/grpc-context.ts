import type * as grpc from '@grpc/grpc-js';
import { A2aError, type CallContext } from '@pty-ws/a2a';
import { AuthError, bearerFromHeader, type Authenticator, type Principal } from '../auth';
import type { Logger } from '../logger';

/** Metadata naming the instance when the request has no `tenant` and the token is not bound to one. */
export const INSTANCE_METADATA = 'x-ptyws-instance';
/** A2A extension activation (the `A2A-Extensions` header of the HTTP bindings), comma-separated. */
export const EXTENSIONS_METADATA = 'a2a-extensions';

export interface GrpcCallAuth {
  auth: Authenticator;
  /** The one instance this edge serves. */
  instanceId: string;
  onAuthFailure?: (reason: string) => void;
  /** Failures that are not the caller's (INTERNAL) are logged here with their cause. */
  logger?: Logger;
}

function text(metadata: grpc.Metadata, key: string): string {
  return metadata
    .get(key)
    .map((v) => (typeof v === 'string' ? v : v.toString('utf8')))
    .join(',');
}

/** `authorization: Bearer <token>` metadata → the principal, exactly as the REST API resolves it. */
export async function authenticate(deps: GrpcCallAuth, metadata: grpc.Metadata): Promise<Principal> {
  try {
    return await deps.auth.authenticate(bearerFromHeader(text(metadata, 'authorization')));
  } catch (err) {
    if (err instanceof AuthError) {
      deps.onAuthFailure?.(err.reason);
      throw new A2aError('Unauthenticated', err.message);
    }
    throw err;
  }
}

/**
 * Which instance a call addresses: the request's `tenant` (A2A v1.0 multi-tenancy), else the
 * `x-ptyws-instance` metadata, else the instance the token belongs to, else this edge's. An
 * edge serves one instance: naming another is TaskNotFound-like NOT_FOUND for the caller.
 */
export function instanceOf(deps: GrpcCallAuth, principal: Principal, metadata: grpc.Metadata, tenant?: string): string {
  const named = tenant || text(metadata, INSTANCE_METADATA) || principal.instanceId || deps.instanceId;
  if (named !== deps.instanceId) {
    throw new A2aError('TaskNotFound', `instance '${named}' is not served here`, { instance_id: named });
  }
  return named;
}

/** The A2A call context of a gRPC call: principal, instance, activated extensions, cancellation. */
export async function callContext(
  deps: GrpcCallAuth,
  call: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>,
  tenant?: string,
): Promise<CallContext> {
  const principal = await authenticate(deps, call.metadata);
  const instanceId = instanceOf(deps, principal, call.metadata, tenant);
  const extensions = text(call.metadata, EXTENSIONS_METADATA)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const aborter = new AbortController();
  call.on('cancelled', () => aborter.abort());
  const traceparent = text(call.metadata, 'traceparent');
  return {
    principal,
    instanceId,
    signal: aborter.signal,
    ...(extensions.length > 0 ? { requestedExtensions: extensions } : {}),
    ...(traceparent ? { serviceParameters: { traceparent } } : {}),
  };
}
