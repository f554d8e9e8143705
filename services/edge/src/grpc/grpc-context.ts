import type * as grpc from '@grpc/grpc-js';
import { A2aError, checkA2aVersion, type CallContext } from '@pty-ws/a2a';
import { AuthError, bearerFromHeader, type Authenticator, type Principal } from '../auth';
import type { RequestGate } from '../limits/request-gate';
import type { Logger } from '../logger';
import { certificateIdentity } from '../mtls/certificate-identity';

/** Metadata naming the instance when the request has no `tenant` and the token is not bound to one. */
export const INSTANCE_METADATA = 'x-ptyws-instance';
/** A2A extension activation (the `A2A-Extensions` header of the HTTP bindings), comma-separated. */
export const EXTENSIONS_METADATA = 'a2a-extensions';
/** The A2A version the caller speaks (the `A2A-Version` header of the HTTP bindings). */
export const VERSION_METADATA = 'a2a-version';

export interface GrpcCallAuth {
  auth: Authenticator;
  /** The one instance this edge serves. */
  instanceId: string;
  /** Failures that are not the caller's (INTERNAL) are logged here with their cause. */
  logger?: Logger;
  /** Per-principal and per-instance request limits (RESOURCE_EXHAUSTED past them); absent: none. */
  admit?: RequestGate;
  /** The server is plaintext and plaintext is not allowed: every call is refused before its bearer is read. */
  plaintextRefused?: boolean;
}

/** What a handler needs of a call to know who is calling: metadata, TLS peer, address. */
export type IncomingCall = Pick<grpc.ServerUnaryCall<unknown, unknown>, 'metadata' | 'getAuthContext' | 'getPeer'>;

function text(metadata: grpc.Metadata, key: string): string {
  return metadata
    .get(key)
    .map((v) => (typeof v === 'string' ? v : v.toString('utf8')))
    .join(',');
}

/**
 * The identity of the client certificate verified in the TLS handshake (PTYWS_TLS_CA: the server
 * requires one), as the HTTP mTLS front reads it; undefined without TLS or without a usable subject.
 */
function certificateOf(call: IncomingCall): string | undefined {
  const cert = call.getAuthContext()?.sslPeerCertificate;
  return cert ? certificateIdentity(cert) : undefined;
}

/** The caller's IP address (the peer is `address:port`), for the audit trail. */
export function sourceAddress(call: IncomingCall): string {
  const peer = call.getPeer();
  const colon = peer.lastIndexOf(':');
  return (colon > 0 ? peer.slice(0, colon) : peer).replace(/^\[(.*)\]$/, '$1');
}

/**
 * `authorization: Bearer <token>` metadata → the principal, exactly as the REST API resolves it:
 * a bearer token decides when sent; otherwise a verified client certificate is the principal
 * (`cert:<CN>`, PTYWS_MTLS_SCOPES).
 */
export async function authenticate(deps: GrpcCallAuth, call: IncomingCall): Promise<Principal> {
  if (deps.plaintextRefused)
    throw new A2aError(
      'PermissionDenied',
      'plaintext gRPC is refused by this server (PTYWS_ALLOW_INSECURE): configure PTYWS_TLS_CERT/PTYWS_TLS_KEY and use TLS',
    );
  try {
    return await deps.auth.authenticate(
      bearerFromHeader(text(call.metadata, 'authorization')),
      certificateOf(call),
      sourceAddress(call),
    );
  } catch (err) {
    if (err instanceof AuthError) throw new A2aError('Unauthenticated', err.message);
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
  // Naming this edge's instance in the request never lifts the token's own instance binding.
  if (principal.instanceId !== undefined && principal.instanceId !== named) {
    throw new A2aError('PermissionDenied', `the token belongs to instance '${principal.instanceId}'`);
  }
  return named;
}

/** The A2A call context of a gRPC call: principal, instance, activated extensions, cancellation. */
export async function callContext(
  deps: GrpcCallAuth,
  call: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>,
  tenant?: string,
): Promise<CallContext> {
  const principal = await authenticate(deps, call);
  const instanceId = instanceOf(deps, principal, call.metadata, tenant);
  deps.admit?.(principal.id, instanceId);
  checkA2aVersion(text(call.metadata, VERSION_METADATA) || undefined);
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
    sourceAddress: sourceAddress(call),
    ...(extensions.length > 0 ? { requestedExtensions: extensions } : {}),
    ...(traceparent ? { serviceParameters: { traceparent } } : {}),
  };
}
