import { A2aError } from '@pty-ws/a2a';
import { errorPayload } from '@pty-ws/protocol';
import type { Principal } from '../auth';
import type { RequestGate } from '../limits/request-gate';
import { sendJson, type Responder } from './respond';

/**
 * Charges an authenticated REST call to the request gate A2A and gRPC share (the principal's and
 * the instance's buckets); past them answers 429 `RATE_LIMITED` with Retry-After and returns false.
 */
export function admitRequest(
  r: Responder,
  gate: RequestGate | undefined,
  principal: Principal,
  instanceId: string,
): boolean {
  try {
    gate?.(principal.id, instanceId);
    return true;
  } catch (err) {
    if (!(err instanceof A2aError) || err.type !== 'RateLimited') throw err;
    const retry = err.data?.['retry_after_s'];
    sendJson(
      r,
      429,
      { error: { ...errorPayload('RATE_LIMITED', err.message), ...(err.data ? { data: err.data } : {}) } },
      typeof retry === 'number' ? { 'retry-after': String(Math.max(1, Math.ceil(retry))) } : {},
    );
    return false;
  }
}
