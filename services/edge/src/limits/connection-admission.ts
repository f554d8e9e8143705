import type { BindingErrorCode } from '@pty-ws/protocol';
import type { RateLimit } from '@pty-ws/telemetry';
import type { CountedConnection, SharedLimits } from './shared-limits';
import { KeyedBuckets } from './token-bucket';
import { systemClock, type Clock } from '@pty-ws/ports';

export interface ConnectionLimits {
  connRatePerPrincipal: number;
  connBurstPerPrincipal: number;
  connRatePerInstance: number;
  connBurstPerInstance: number;
  /** Control-plane requests per principal: a bucket apart from attach upgrades (PTYWS_API_*). */
  apiRatePerPrincipal: number;
  apiBurstPerPrincipal: number;
  maxSockets: number;
  /** Open attach connections per principal / per instance, counted across edges when shared. */
  maxConnsPerPrincipal?: number;
  maxConnsPerInstance?: number;
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
  private readonly requestsPerPrincipal: KeyedBuckets;
  /** Upgrades between admission and open: counted so a burst of slow upgrades cannot overshoot the cap. */
  private pending = 0;
  private connections: () => Iterable<CountedConnection> = () => [];
  private shared: SharedLimits | undefined;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly openSockets: () => number,
    clock: Clock = systemClock,
  ) {
    this.perPrincipal = new KeyedBuckets(limits.connRatePerPrincipal, limits.connBurstPerPrincipal, clock);
    this.perInstance = new KeyedBuckets(limits.connRatePerInstance, limits.connBurstPerInstance, clock);
    this.requestsPerPrincipal = new KeyedBuckets(limits.apiRatePerPrincipal, limits.apiBurstPerPrincipal, clock);
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

  /**
   * Enables the open-connection caps: `connections` are this edge's; `shared` (cluster mode) adds
   * the other edges' counts and makes the rate buckets cluster-wide.
   */
  countConnections(connections: () => Iterable<CountedConnection>, shared?: SharedLimits): void {
    this.connections = connections;
    this.shared = shared;
  }

  /** Admissions other edges made: they drain this edge's buckets too (one cluster-wide rate). */
  chargeRemote(
    principals: ReadonlyMap<string, number>,
    instances: ReadonlyMap<string, number>,
    requests: ReadonlyMap<string, number> = new Map(),
  ): void {
    for (const [k, n] of principals) this.perPrincipal.charge(k, n);
    for (const [k, n] of instances) this.perInstance.charge(k, n);
    for (const [k, n] of requests) this.requestsPerPrincipal.charge(k, n);
  }

  /** Open connections of the principal and of the instance, in one pass: this edge's plus the others' last reports. */
  private openCounts(principalId: string, instanceId: string): { principal: number; instance: number } {
    let principal = this.shared?.remoteOpen('principal', principalId) ?? 0;
    let instance = this.shared?.remoteOpen('instance', instanceId) ?? 0;
    for (const c of this.connections()) {
      if (c.principal.id === principalId) principal += 1;
      if (c.instanceId === instanceId) instance += 1;
    }
    return { principal, instance };
  }

  private openCapRefusal(principalId: string, instanceId: string): Refusal | undefined {
    const { maxConnsPerPrincipal: perPrincipal, maxConnsPerInstance: perInstance } = this.limits;
    if (perPrincipal === undefined && perInstance === undefined) return undefined;
    const open = this.openCounts(principalId, instanceId);
    if (perPrincipal !== undefined && open.principal >= perPrincipal) {
      return {
        status: 429,
        code: 'RATE_LIMITED',
        message: `this principal already holds its maximum of ${perPrincipal} open connections (PTYWS_MAX_CONNS_PER_PRINCIPAL, all edges); close one first`,
        limit: 'open_connections_principal',
        retryAfterS: 1,
      };
    }
    if (perInstance !== undefined && open.instance >= perInstance) {
      return {
        status: 429,
        code: 'RATE_LIMITED',
        message: `instance '${instanceId}' already holds its maximum of ${perInstance} open connections (PTYWS_MAX_CONNS_PER_INSTANCE, all edges)`,
        limit: 'open_connections_instance',
        retryAfterS: 1,
      };
    }
    return undefined;
  }

  /** Takes one connection from the principal's and the instance's buckets, or says which is empty. */
  admit(principalId: string, instanceId: string): Refusal | undefined {
    const capped = this.openCapRefusal(principalId, instanceId);
    if (capped) return capped;
    const refused = this.takeRate(principalId, instanceId);
    if (!refused) this.shared?.recordAdmission(principalId, instanceId);
    return refused;
  }

  /**
   * A control-plane request (A2A HTTP/JSON-RPC/gRPC, REST API, gRPC admin): one token from the
   * principal's request bucket — its own, so a busy dashboard or a conformance run does not eat
   * the attach allowance — and from the instance's bucket, which covers everything the instance
   * is asked. Open-connection caps concern attach sockets only and are not checked.
   */
  admitRequest(principalId: string, instanceId: string): Refusal | undefined {
    if (!this.requestsPerPrincipal.take(principalId)) {
      return {
        status: 429,
        code: 'RATE_LIMITED',
        message: `too many requests for this principal (limit ${this.limits.apiRatePerPrincipal}/s, burst ${this.limits.apiBurstPerPrincipal})`,
        limit: 'requests_principal',
        retryAfterS: retryAfter(this.requestsPerPrincipal.secondsUntil(principalId)),
      };
    }
    const refused = this.takeInstanceRate(instanceId);
    if (!refused) this.shared?.recordRequest(principalId, instanceId);
    return refused;
  }

  /**
   * A control-plane stream about to open: refused when the principal or the instance already holds
   * its maximum of open connections (the rate was charged when its request was admitted).
   */
  admitStream(principalId: string, instanceId: string): Refusal | undefined {
    return this.openCapRefusal(principalId, instanceId);
  }

  private takeRate(principalId: string, instanceId: string): Refusal | undefined {
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
    return this.takeInstanceRate(instanceId);
  }

  private takeInstanceRate(instanceId: string): Refusal | undefined {
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
