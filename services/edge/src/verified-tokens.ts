import { systemClock, type Clock, type TokenRecord } from '@pty-ws/ports';

export interface VerifiedTokensOptions {
  /** How long a verified token is trusted without asking the TokenStore again. */
  ttlMs: number;
  /** Most entries kept; the oldest is dropped first. */
  maxEntries: number;
  clock?: Clock;
}

/** Default: short enough that a lost revocation broadcast is bounded, long enough for a reconnect storm. */
export const VERIFIED_TOKENS_DEFAULTS: VerifiedTokensOptions = { ttlMs: 5000, maxEntries: 10_000 };

/**
 * Token records the TokenStore recently confirmed as valid, by token hash. Every WebSocket upgrade
 * and REST call authenticates; in cluster mode that is a Postgres query plus a `touch` write, which
 * dominates a reconnect storm. Only valid records are kept (an unknown, revoked or expired token
 * always goes to the store), expiry is still checked on each use, and a revocation seen by this
 * edge (its own, or another edge's over NATS) forgets the token at once. A lookup that was in flight
 * while a revocation arrived is not cached, so it cannot put the revoked record back.
 */
export class VerifiedTokens {
  private readonly byHash = new Map<string, { record: TokenRecord; until: number }>();
  private readonly clock: Clock;
  /** Bumped by every `forget`: a lookup started before the bump must not be cached. */
  private epoch = 0;

  constructor(private readonly opts: VerifiedTokensOptions = VERIFIED_TOKENS_DEFAULTS) {
    this.clock = opts.clock ?? systemClock;
  }

  /** The cached record for this hash, if still fresh. */
  get(hash: string): TokenRecord | undefined {
    const hit = this.byHash.get(hash);
    if (!hit) return undefined;
    if (hit.until <= this.clock.monotonic()) {
      this.byHash.delete(hash);
      return undefined;
    }
    return hit.record;
  }

  /** A token that marks the start of a store lookup; pass it to `remember`. */
  begin(): number {
    return this.epoch;
  }

  /** Keeps a record the store just returned as valid, unless a revocation arrived meanwhile. */
  remember(hash: string, record: TokenRecord, startedAt: number): void {
    if (startedAt !== this.epoch || this.opts.ttlMs <= 0) return;
    this.byHash.delete(hash); // re-insert: Map order is then oldest first
    this.byHash.set(hash, { record, until: this.clock.monotonic() + this.opts.ttlMs });
    while (this.byHash.size > this.opts.maxEntries) {
      const oldest = this.byHash.keys().next().value as string;
      this.byHash.delete(oldest);
    }
  }

  /** A token was revoked: never answer for it from memory again. */
  forget(tokenId: string): void {
    this.epoch++;
    for (const [hash, { record }] of this.byHash) if (record.tokenId === tokenId) this.byHash.delete(hash);
  }

  get size(): number {
    return this.byHash.size;
  }
}
