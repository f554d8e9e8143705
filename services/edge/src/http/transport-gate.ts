import type { TransportPolicy, TransportVerdict } from '../transport';
import type { HttpRequest, HttpResponse } from '../uws';
import { sendError, type Responder } from './respond';

const ANY: TransportVerdict = { ok: true, remoteAddress: '' };

/**
 * The REST side of the transport rule attach upgrades follow: plain http is refused unless
 * insecure transport is allowed or a trusted proxy saw https, and behind the mTLS front the
 * verified client's certificate identity comes along. Call synchronously in the uWS handler.
 */
export function transportOf(
  transport: TransportPolicy | undefined,
  res: HttpResponse,
  req: HttpRequest,
): TransportVerdict {
  if (!transport) return ANY;
  return transport.admit(
    Buffer.from(res.getRemoteAddressAsText()).toString(),
    req.getHeader('x-forwarded-proto'),
    req.getHeader('origin'),
    req.getHeader('host'),
    Buffer.from(res.getProxiedRemoteAddressAsText()).toString(),
    req.getHeader('x-forwarded-for'),
  );
}

/** Answers a refused request (403 PERMISSION_DENIED, saying how to connect); true when it did. */
export function refusedTransport(r: Responder, verdict: TransportVerdict): boolean {
  if (verdict.ok) return false;
  sendError(r, 'PERMISSION_DENIED', verdict.message, 403);
  return true;
}
