import { BindingError } from '@pty-ws/protocol';
import { systemClock, type Clock } from '@pty-ws/ports';
import { KeyedBuckets } from './token-bucket';

/** Failed credentials an address may present in a burst, then per second (defaults). */
export const AUTH_FAILURE_BURST = 100;
export const AUTH_FAILURE_RATE_PER_S = 10;

/**
 * Slows down guessing: each source address (the client behind a trusted proxy, transport.ts)
 * may present AUTH_FAILURE_BURST refused bearer tokens (unknown, expired, revoked) in a burst
 * and AUTH_FAILURE_RATE_PER_S per second after that (PTYWS_AUTH_FAILURE_BURST / _RATE).
 *
 * Only failures are charged, and only after the lookup: a valid token is never refused here,
 * however many bad ones its address (a NAT, a proxy) sent. A throttled address's failures are
 * answered 429 RATE_LIMITED, whatever the reason, so the answer tells no more than 401 would
 * (unknown, expired and revoked look alike). The lookup itself stays a single indexed hash
 * query (a memory hit for recently verified tokens), bounded in parallel by the edge's
 * in-flight request cap. A missing token costs nothing and is not counted.
 */
export class AuthFailureThrottle {
  private readonly buckets: KeyedBuckets;

  constructor(ratePerS = AUTH_FAILURE_RATE_PER_S, burst = AUTH_FAILURE_BURST, clock: Clock = systemClock) {
    this.buckets = new KeyedBuckets(ratePerS, burst, clock);
  }

  /**
   * A token from `address` was refused: charges the failure, and throws RATE_LIMITED (instead of
   * the refusal the caller would give) when the address has none left.
   */
  failed(address: string): void {
    if (this.buckets.take(address, 1)) return;
    const wait = this.buckets.secondsUntil(address, 1);
    throw new BindingError('RATE_LIMITED', 'too many failed authentication attempts from this address', {
      limit: 'auth_failures',
      retry_after_s: Math.max(1, Math.ceil(wait)),
    });
  }
}
