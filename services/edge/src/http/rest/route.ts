import { tryDecodePathSegment } from '@pty-ws/protocol';
import type { Config } from '@pty-ws/config';
import { NotFoundError, type AdminCaller, type AdminOperations } from '../../admin/admin-operations';
import { bearerFromHeader, type Authenticator, type Principal } from '../../auth';
import type { RequestGate } from '../../limits/request-gate';
import type { TransportPolicy } from '../../transport';
import type { HttpRequest, TemplatedApp } from '../../uws';
import { admitRequest } from '../admit-request';
import { readJson, responder, sendCaught, sendError, sendJson, type Responder } from '../respond';
import { refusedTransport, transportOf } from '../transport-gate';

const BODY_LIMIT = 256 * 1024;

export interface Req {
  method: string;
  url: string;
  host: string;
  authorization: string;
  params: string[];
  /** A path parameter held a malformed percent-escape: the request is answered 400 unread. */
  malformedPath: boolean;
  /** A body-carrying request whose Content-Type is not application/json (answered 415 unread). */
  notJson: boolean;
  /** The raw query string, without `?`. */
  query: string;
  /** The caller's address once the transport check found it (mTLS: the TLS client's). */
  sourceAddress: string;
  /**
   * The JSON body, read from the moment the request arrives: uWS delivers body chunks only to an
   * onData attached synchronously in the handler, so reading after an await (auth against
   * Postgres) would wait forever.
   */
  body: Promise<unknown>;
}

export type Handler = (r: Responder, req: Req, caller: AdminCaller) => Promise<unknown>;

function snapshotRequest(r: Responder, req: HttpRequest, paramCount: number, hasBody: boolean): Req {
  const params: string[] = [];
  let malformedPath = false;
  for (let i = 0; i < paramCount; i++) {
    const decoded = tryDecodePathSegment(req.getParameter(i) ?? '');
    if (decoded === undefined) malformedPath = true;
    params.push(decoded ?? '');
  }
  const body = hasBody ? readJson(r, BODY_LIMIT) : Promise.resolve({});
  body.catch(() => undefined); // a bad body is reported when the handler awaits it, not as unhandled
  return {
    method: req.getMethod(),
    url: req.getUrl(),
    host: req.getHeader('host'),
    authorization: req.getHeader('authorization'),
    params,
    malformedPath,
    // Only JSON: a browser can send text/plain or a form cross-site without a CORS preflight.
    notJson: hasBody && !isJsonType(req.getHeader('content-type')),
    query: req.getQuery() ?? '',
    sourceAddress: '',
    body,
  };
}

function isJsonType(contentType: string): boolean {
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

export interface RouteDeps {
  config: Config;
  admin: AdminOperations;
  auth: Authenticator;
  transport?: TransportPolicy;
  admit?: RequestGate;
}

/**
 * Mounts one REST route: `params` path parameters, `admin` when it needs the admin scope. Every
 * route goes the same way: transport check, the request read (body at once, see `Req.body`),
 * authentication, request limits, then the handler; what a handler throws is answered as an error.
 */
export type Route = (
  method: 'get' | 'post' | 'del',
  pattern: string,
  params: number,
  admin: boolean,
  handler: Handler,
) => void;

export function restRoute(app: TemplatedApp, deps: RouteDeps): Route {
  const { config } = deps;
  return (method, pattern, params, admin, handler) => {
    app[method](pattern, (res, req) => {
      const r = responder(res);
      const verdict = transportOf(deps.transport, res, req);
      const snapshot = snapshotRequest(r, req, params, method === 'post');
      if (refusedTransport(r, verdict)) return;
      if (verdict.ok) snapshot.sourceAddress = verdict.remoteAddress;
      if (snapshot.malformedPath)
        return sendError(r, 'INVALID_REQUEST', 'malformed percent-escape in the URL path', 400);
      if (snapshot.notJson)
        return sendError(r, 'INVALID_REQUEST', 'request bodies must be sent as Content-Type: application/json', 415);
      void (async () => {
        let principal: Principal;
        try {
          principal = await deps.auth.authenticate(
            bearerFromHeader(snapshot.authorization),
            verdict.ok ? verdict.certificate : undefined,
            verdict.ok ? verdict.remoteAddress : undefined,
          );
        } catch (err) {
          return sendCaught(r, err);
        }
        if (!admitRequest(r, deps.admit, principal, config.instanceId)) return;
        if (admin) {
          try {
            deps.admin.authorize(principal);
          } catch (err) {
            return sendCaught(r, err);
          }
        }
        await handler(r, snapshot, { principal });
      })().catch((err: unknown) => sendCaught(r, err));
    });
  };
}

/** A NotFoundError is answered 404 with its payload; anything else as `sendCaught` says. */
export function notFound(err: unknown, r: Responder): void {
  if (err instanceof NotFoundError) return sendJson(r, 404, { error: err.toPayload() });
  return sendCaught(r, err);
}
