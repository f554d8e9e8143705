import { BindingError } from '@pty-ws/protocol';
import { systemClock, type Clock } from '@pty-ws/ports';
import { KeyedBuckets } from './token-bucket';

/** Failed credentials an address may present in a burst, then per second (defaults). */
export const AUTH_FAILURE_BURST = 100;
export const AUTH_FAILURE_RATE_PER_S = 10;

/**
 * Slows down guessing: every refused bearer token (unknown, expired, revoked) costs a TokenStore
 * lookup — a Postgres query in cluster mode — so each source address may fail only
 * AUTH_FAILURE_BURST times in a burst and AUTH_FAILURE_RATE_PER_S times per second after that.
 * Past it the address's requests are refused with RATE_LIMITED before any lookup, until its
 * bucket refills; valid tokens from it wait too (the address, not the token, is throttled).
 * A missing token costs nothing and is not counted.
 */
export class AuthFailureThrottle {
  private readonly buckets: KeyedBuckets;

  constructor(ratePerS = AUTH_FAILURE_RATE_PER_S, burst = AUTH_FAILURE_BURST, clock: Clock = systemClock) {
    this.buckets = new KeyedBuckets(ratePerS, burst, clock);
  }

  /**
   * Before a token lookup for `address`: takes one failure's worth from its bucket up front, so
   * lookups running in parallel cannot all pass before the first failure is counted; throws
   * RATE_LIMITED when none is left. Call the returned function with the outcome: a lookup that
   * succeeded gives its token back.
   */
  begin(address: string): (failed: boolean) => void {
    if (!this.buckets.take(address, 1)) {
      const wait = this.buckets.secondsUntil(address, 1);
      throw new BindingError('RATE_LIMITED', 'too many failed authentication attempts from this address', {
        limit: 'auth_failures',
        retry_after_s: Math.max(1, Math.ceil(wait)),
      });
    }
    return (failed) => {
      if (!failed) this.buckets.refund(address, 1);
    };
  }
}
