import {
  ClosedConnectionError,
  ConnectionError,
  DrainingConnectionError,
  NoRespondersError,
  RequestError,
  TimeoutError,
} from '@nats-io/transport-node';
import { JetStreamApiError, JetStreamError } from '@nats-io/jetstream';
import { DirectGetError, DirectGetTimeoutError } from './direct-gets';

/** NATS's own status for "no JetStream server can answer now" (no responders, no stream leader). */
const SERVICE_UNAVAILABLE = 503;

/**
 * Whether a failed NATS or JetStream call failed because the servers could not be reached or the
 * stream had no one to answer (the caller may retry later), as opposed to being refused (a wrong
 * last sequence, a missing message, bad arguments).
 */
export function isNatsOutage(err: unknown): boolean {
  if (
    err instanceof TimeoutError ||
    err instanceof NoRespondersError ||
    err instanceof RequestError ||
    err instanceof ConnectionError ||
    err instanceof ClosedConnectionError ||
    err instanceof DrainingConnectionError
  ) {
    return true;
  }
  if (err instanceof DirectGetTimeoutError) return true;
  if (err instanceof JetStreamApiError || err instanceof DirectGetError) return err.status === SERVICE_UNAVAILABLE;
  if (err instanceof JetStreamError) return (err as { code?: unknown }).code === SERVICE_UNAVAILABLE;
  return err instanceof Error && err.cause !== undefined && isNatsOutage(err.cause);
}
