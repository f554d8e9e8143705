import { A2aError } from '@pty-ws/a2a';
import type { RateLimit } from '@pty-ws/telemetry';
import type { ConnectionAdmission, Refusal } from './connection-admission';

/**
 * Charges one control-plane request of a principal to an instance; throws `RateLimited` (HTTP 429,
 * JSON-RPC -32600 with HTTP 429, gRPC RESOURCE_EXHAUSTED, each binding renders it) when a bucket is empty.
 */
export type RequestGate = (principalId: string, instanceId: string) => void;

/** The gate over the edge's connection admission; refusals are counted like the attach ones. */
export function requestGate(
  admission: Pick<ConnectionAdmission, 'admitRequest'>,
  onRateLimited?: (limit: RateLimit) => void,
): RequestGate {
  return (principalId, instanceId) => {
    const refused = admission.admitRequest(principalId, instanceId);
    if (!refused) return;
    onRateLimited?.(refused.limit);
    throw rateLimited(refused);
  };
}

/** A refusal as the A2A error every binding renders (`data.limit`, `data.retry_after_s`). */
export function rateLimited(refused: Refusal): A2aError {
  return new A2aError('RateLimited', refused.message, { limit: refused.limit, retry_after_s: refused.retryAfterS });
}
