import {
  BEARER_SUBPROTOCOL_PREFIX,
  SUBPROTOCOL_BINARY,
  SUBPROTOCOL_JSON,
  BindingError,
  errorPayload,
  newId,
  tryDecodePathSegment,
} from '@pty-ws/protocol';
import { DependencyUnavailable, isDependencyUnavailable, type SessionRegistry } from '@pty-ws/ports';
import { AuthError, bearerFromHeader, canObserve, type Authenticator, type Principal } from '../auth';
import { sendCaught, sendError, sendJson, responder, type Responder } from '../http/respond';
import { SpanKind, contextFromHeaders, globalTracer, inSpan } from '@pty-ws/telemetry';
import type { ConnectionAdmission, Refusal } from '../limits';
import type { TransportPolicy } from '../transport';
import type { Logger } from '../logger';
import type { HttpRequest, HttpResponse } from '../uws';
import { newConn, type ConnSocketData } from './connection';

const ATTACH_PATH = /^\/agents\/([^/]+)\/sessions\/([^/]+)\/attach\/?$/;
const TOKEN_QUERY = /(^|&)(token|access_token|bearer|auth)=/i;

export interface Negotiated {
  subprotocol: string;
  binary: boolean;
  bearer?: string;
}

/**
 * Picks the PTY subprotocol (binding §2.2) and pulls out an embedded bearer (§7.1). Returns null
 * when the header is present but offers no PTY token: the upgrade is refused with 400.
 */
export function negotiateSubprotocol(header: string, allowAbsent: boolean): Negotiated | null {
  const offered = header
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  let bearer: string | undefined;
  const pty: string[] = [];
  for (const token of offered) {
    if (token.startsWith(BEARER_SUBPROTOCOL_PREFIX)) {
      const encoded = token.slice(BEARER_SUBPROTOCOL_PREFIX.length);
      bearer = Buffer.from(encoded, 'base64url').toString('utf8');
    } else if (token === SUBPROTOCOL_JSON || token === SUBPROTOCOL_BINARY) {
      pty.push(token);
    }
  }
  const chosen = pty[0];
  if (!chosen) {
    if (offered.length === 0 || (offered.length === 1 && bearer !== undefined && allowAbsent)) {
      return allowAbsent
        ? bearer !== undefined
          ? { subprotocol: '', binary: false, bearer }
          : { subprotocol: '', binary: false }
        : null;
    }
    return null;
  }
  const n: Negotiated = { subprotocol: chosen, binary: chosen === SUBPROTOCOL_BINARY };
  if (bearer !== undefined) n.bearer = bearer;
  return n;
}

export interface UpgradeDeps {
  registry: SessionRegistry;
  auth: Authenticator;
  logger: Logger;
  knownInstance: (instanceId: string) => boolean;
  onAuthFailure?: (reason: string) => void;
  /** Socket cap and connection rates; absent: unlimited. */
  admission?: ConnectionAdmission;
  onRateLimited?: (limit: Refusal['limit']) => void;
  /** Refuses plain ws:// when the operator asked for it; absent: every transport is accepted. */
  transport?: TransportPolicy;
  /** A dependency an attach needs that is down now (cluster: NATS): the upgrade gets 503. */
  unavailable?: () => string | undefined;
}

/** Everything an upgrade needs, copied out of the request before the first await (uWS rule). */
interface UpgradeRequest {
  url: string;
  query: string;
  authorization: string;
  protocolHeader: string;
  hasProtocolHeader: boolean;
  key: string;
  extensions: string;
  remoteAddress: string;
  /** The address a PROXY v2 header named (the mTLS front's relays); empty without one. */
  proxiedAddress: string;
  forwardedProto: string;
  /** Client addresses a trusted proxy appended to (its rightmost untrusted hop is the client). */
  forwardedFor: string;
  /** Browser origin and the Host it addressed (cross-site WebSocket hijacking check). */
  origin: string;
  host: string;
  /** The verified client certificate's identity (mTLS), once the transport check found it. */
  certificate?: string;
  /** W3C trace context of the upgrade request, if the client sent one. */
  traceparent: string;
  tracestate: string;
}

export function upgradeHandler(deps: UpgradeDeps) {
  return (res: HttpResponse, req: HttpRequest, context: unknown): void => {
    const r = responder(res);
    const u: UpgradeRequest = {
      url: req.getUrl(),
      query: req.getQuery() ?? '',
      authorization: req.getHeader('authorization'),
      protocolHeader: req.getHeader('sec-websocket-protocol'),
      hasProtocolHeader: req.getHeader('sec-websocket-protocol') !== '',
      key: req.getHeader('sec-websocket-key'),
      extensions: req.getHeader('sec-websocket-extensions'),
      remoteAddress: Buffer.from(res.getRemoteAddressAsText()).toString(),
      proxiedAddress: Buffer.from(res.getProxiedRemoteAddressAsText()).toString(),
      forwardedProto: req.getHeader('x-forwarded-proto'),
      forwardedFor: req.getHeader('x-forwarded-for'),
      origin: req.getHeader('origin'),
      host: req.getHeader('host'),
      traceparent: req.getHeader('traceparent'),
      tracestate: req.getHeader('tracestate'),
    };
    // One span per upgrade (auth, registry lookup), child of the request's traceparent if any.
    // Per-request spans come later, once service_parameters (and their trace_id) are known.
    const parent = contextFromHeaders(u.traceparent, u.tracestate);
    const span = globalTracer('@pty-ws/edge').startSpan(
      'ws.upgrade',
      { kind: SpanKind.SERVER, attributes: { 'url.path': u.url, 'network.peer.address': u.remoteAddress } },
      parent,
    );
    void inSpan(span, () => admitted(deps, r, u, context), parent).catch((err: unknown) => {
      // An outage is logged once by the backend's health, not per refused upgrade.
      if (isDependencyUnavailable(err)) return sendCaught(r, err);
      deps.logger.error({ err: (err as Error).message }, 'upgrade failed');
      sendError(r, 'INTERNAL', 'upgrade failed');
    });
  };
}

function refuse(r: Responder, refusal: Refusal): void {
  sendJson(
    r,
    refusal.status,
    { error: errorPayload(refusal.code, refusal.message) },
    { 'retry-after': String(refusal.retryAfterS) },
  );
}

/** Transport and socket-cap checks run before authentication: they are cheap and need no token. */
async function admitted(deps: UpgradeDeps, r: Responder, u: UpgradeRequest, context: unknown): Promise<void> {
  const verdict = deps.transport?.admit(
    u.remoteAddress,
    u.forwardedProto,
    u.origin,
    u.host,
    u.proxiedAddress,
    u.forwardedFor,
  );
  if (verdict && !verdict.ok) return sendError(r, 'PERMISSION_DENIED', verdict.message, 403);
  if (verdict) {
    // Behind the mTLS front: the TLS client's own address, and its certificate identity.
    u.remoteAddress = verdict.remoteAddress;
    if (verdict.certificate !== undefined) u.certificate = verdict.certificate;
  }
  const full = deps.admission?.reserveSocket();
  if (full) {
    deps.onRateLimited?.(full.limit);
    return refuse(r, full);
  }
  try {
    await upgrade(deps, r, u, context);
  } finally {
    deps.admission?.release();
  }
}

async function upgrade(deps: UpgradeDeps, r: Responder, u: UpgradeRequest, context: unknown): Promise<void> {
  const m = ATTACH_PATH.exec(u.url);
  if (!m)
    return sendError(
      r,
      'INVALID_REQUEST',
      'not an attach URL: use /agents/{instance_id}/sessions/{session_id}/attach',
      404,
    );
  if (TOKEN_QUERY.test(u.query)) {
    deps.onAuthFailure?.('token_in_url');
    return sendError(
      r,
      'UNAUTHENTICATED',
      'tokens are not accepted in the URL query string; use the Authorization header or the bearer.<token> subprotocol',
      401,
    );
  }
  const instanceId = tryDecodePathSegment(m[1]!);
  const sessionId = tryDecodePathSegment(m[2]!);
  if (instanceId === undefined || sessionId === undefined)
    return sendError(r, 'INVALID_REQUEST', 'malformed percent-escape in the attach URL', 400);

  const negotiated = negotiateSubprotocol(u.protocolHeader, !deps.auth.enabled);
  if (!negotiated) {
    const msg = u.hasProtocolHeader
      ? `Sec-WebSocket-Protocol must offer ${SUBPROTOCOL_JSON} or ${SUBPROTOCOL_BINARY}`
      : `a Sec-WebSocket-Protocol header offering ${SUBPROTOCOL_JSON} or ${SUBPROTOCOL_BINARY} is required`;
    return sendError(r, 'INVALID_REQUEST', msg, 400);
  }

  let principal: Principal;
  try {
    principal = await deps.auth.authenticate(
      negotiated.bearer ?? bearerFromHeader(u.authorization),
      u.certificate,
      u.remoteAddress,
    );
  } catch (err) {
    if (err instanceof AuthError) return sendError(r, 'UNAUTHENTICATED', err.message, 401);
    if (err instanceof BindingError) return sendCaught(r, err);
    throw err;
  }
  if (!canObserve(principal)) return sendError(r, 'PERMISSION_DENIED', 'the principal has no pty scope', 403);
  const limited = deps.admission?.admit(principal.id, instanceId);
  if (limited) {
    deps.onRateLimited?.(limited.limit);
    return refuse(r, limited);
  }
  if (!deps.knownInstance(instanceId)) {
    return sendError(r, 'INVALID_REQUEST', `instance '${instanceId}' not found`, 404);
  }
  if (principal.instanceId !== undefined && principal.instanceId !== instanceId) {
    return sendError(r, 'PERMISSION_DENIED', `the token is not valid for instance '${instanceId}'`, 403);
  }
  if (principal.sessionId !== undefined && principal.sessionId !== sessionId) {
    return sendError(r, 'PERMISSION_DENIED', 'the token is bound to another session', 403);
  }
  const down = deps.unavailable?.();
  if (down) throw new DependencyUnavailable(down, 'disconnected');
  const session = await deps.registry.get(sessionId);
  if (!session || session.instanceId !== instanceId) {
    return sendError(r, 'INVALID_REQUEST', `session '${sessionId}' not found on instance '${instanceId}'`, 404);
  }
  // A closed session is still known while it is retained (PTYWS_CLOSED_SESSION_TTL_S): no 404
  // (binding §2: only unknown sessions get one); a reconnecting client learns of the close by
  // replay. The registry forgets it after the TTL, and from then on the upgrade answers 404.
  const sessionClosed = session.state === 'closed';
  if (r.aborted) return;

  const conn = newConn({
    clientId: newId(),
    // The record's strings, equal to the URL's: those are slices that would keep the whole URL.
    instanceId: session.instanceId,
    sessionId: session.sessionId,
    principal,
    binary: negotiated.binary,
    remoteAddress: u.remoteAddress,
    sessionClosed,
  });
  r.res.cork(() => {
    // Only the selected PTY token is echoed; the bearer entry never is (binding §7.1).
    r.res.upgrade<ConnSocketData>({ conn }, u.key, negotiated.subprotocol, u.extensions, context as never);
  });
}
