import type { BindingErrorCode } from '@pty-ws/protocol';
import type { RateLimit } from '@pty-ws/telemetry';
import { KeyedBuckets, monotonicMs, type Clock } from './token-bucket';

export interface ConnectionLimits {
  connRatePerPrincipal: number;
  connBurstPerPrincipal: number;
  connRatePerInstance: number;
  connBurstPerInstance: number;
  maxSockets: number;
}

/** Why an upgrade is refused before it happens: the HTTP answer and the metric label. */
export interface Refusal {
  status: 429 | 503;
  code: BindingErrorCode;
  message: string;
  limit: RateLimit;
  retryAfterS: number;
}

/**
 * Admission of new attach connections on one edge (binding §11 "Resource exhaustion"): a socket
 * cap checked before authentication (cheap, protects the token store too) and per-principal and
 * per-instance rates checked once the principal is known.
 */
export class ConnectionAdmission {
  private readonly perPrincipal: KeyedBuckets;
  private readonly perInstance: KeyedBuckets;
  /** Upgrades between admission and open: counted so a burst of slow upgrades cannot overshoot the cap. */
  private pending = 0;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly openSockets: () => number,
    now: Clock = monotonicMs,
  ) {
    this.perPrincipal = new KeyedBuckets(limits.connRatePerPrincipal, limits.connBurstPerPrincipal, now);
    this.perInstance = new KeyedBuckets(limits.connRatePerInstance, limits.connBurstPerInstance, now);
  }

  /** A socket slot for this upgrade, or a 503; call `release` when the upgrade ends either way. */
  reserveSocket(): Refusal | undefined {
    if (this.openSockets() + this.pending >= this.limits.maxSockets) {
      return {
        status: 503,
        code: 'RATE_LIMITED',
        message: `this edge holds its maximum of ${this.limits.maxSockets} connections; retry on another edge or later`,
        limit: 'sockets',
        retryAfterS: 1,
      };
    }
    this.pending += 1;
    return undefined;
  }

  release(): void {
    this.pending = Math.max(0, this.pending - 1);
  }

  /** Takes one connection from the principal's and the instance's buckets, or says which is empty. */
  admit(principalId: string, instanceId: string): Refusal | undefined {
    // The instance bucket is only charged once the principal passed, so one noisy principal
    // cannot drain the instance's allowance with refused attempts.
    if (!this.perPrincipal.take(principalId)) {
      return {
        status: 429,
        code: 'RATE_LIMITED',
        message: `too many new connections for this principal (limit ${this.limits.connRatePerPrincipal}/s, burst ${this.limits.connBurstPerPrincipal})`,
        limit: 'connections_principal',
        retryAfterS: retryAfter(this.perPrincipal.secondsUntil(principalId)),
      };
    }
    if (!this.perInstance.take(instanceId)) {
      return {
        status: 429,
        code: 'RATE_LIMITED',
        message: `too many new connections for instance '${instanceId}' (limit ${this.limits.connRatePerInstance}/s, burst ${this.limits.connBurstPerInstance})`,
        limit: 'connections_instance',
        retryAfterS: retryAfter(this.perInstance.secondsUntil(instanceId)),
      };
    }
    return undefined;
  }
}

const retryAfter = (s: number): number => (Number.isFinite(s) ? Math.max(1, Math.ceil(s)) : 60);
