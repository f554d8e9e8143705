import { createHash, randomBytes } from 'node:crypto';
import { BindingError, SCOPES, type Scope } from '@pty-ws/protocol';
import { systemClock, type Clock, type TokenRecord, type TokenStore } from '@pty-ws/ports';
import { VerifiedTokens } from './verified-tokens';
import type { AuthFailureThrottle } from './limits/auth-failure-throttle';

/** Who is on the other end of a request or connection, fixed at upgrade (binding §7.2). */
export interface Principal {
  id: string;
  /** How it was established; absent means a bearer token. */
  kind?: 'token' | 'certificate' | 'anonymous';
  scopes: ReadonlySet<Scope>;
  instanceId?: string;
  sessionId?: string;
  tokenId?: string;
  /** When the token stops being valid (epoch ms); open connections are closed then too. */
  expiresAt?: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** 256 bits of randomness, base64url: the token itself is shown once and never stored. */
export function generateToken(): string {
  return `ptyws_${randomBytes(32).toString('base64url')}`;
}

export function canControl(p: Principal): boolean {
  return p.scopes.has('pty:control') || p.scopes.has('pty:admin');
}
export function canObserve(p: Principal): boolean {
  return p.scopes.has('pty:observe') || canControl(p);
}
export function isAdmin(p: Principal): boolean {
  return p.scopes.has('pty:admin');
}

export const ANONYMOUS: Principal = { id: 'anonymous', kind: 'anonymous', scopes: new Set<Scope>(SCOPES) };

export type AuthFailure = 'missing' | 'invalid' | 'expired' | 'revoked';

export interface AuthenticatorOptions {
  tokens: TokenStore;
  enabled: boolean;
  /** Scopes of a certificate principal (PTYWS_MTLS_SCOPES); default observe only. */
  certificateScopes?: readonly Scope[];
  /** Recently verified tokens (verified-tokens.ts); `forget` must hear of every revocation. */
  verified?: VerifiedTokens;
  /** Told the reason of every refused credential, whichever API it came through (metrics). */
  onFailure?: (reason: AuthFailure) => void;
  /** Per-address limit on refused tokens; absent: unlimited. */
  throttle?: AuthFailureThrottle;
  /** Token expiry is wall-clock time (`expires_at`). */
  clock?: Clock;
}

/** Resolves bearer tokens to principals against the TokenStore (hash lookup, never the token). */
export class Authenticator {
  private readonly tokens: TokenStore;
  readonly enabled: boolean;
  private readonly certificateScopes: readonly Scope[];
  private readonly verified: VerifiedTokens;
  private readonly onFailure: (reason: AuthFailure) => void;
  private readonly throttle: AuthFailureThrottle | undefined;
  private readonly clock: Clock;
  /**
   * One principal per verified record, shared by every connection and request it authenticates
   * while the record is cached (principals are never written to): 10k sockets of one token held
   * 10k copies of the same id, scope set and ids, about 300 bytes each.
   */
  private readonly principals = new WeakMap<TokenRecord, Principal>();

  constructor(opts: AuthenticatorOptions) {
    this.tokens = opts.tokens;
    this.enabled = opts.enabled;
    this.certificateScopes = opts.certificateScopes ?? ['pty:observe'];
    this.verified = opts.verified ?? new VerifiedTokens();
    this.onFailure = opts.onFailure ?? (() => {});
    this.throttle = opts.throttle;
    this.clock = opts.clock ?? systemClock;
  }

  /** A token was revoked (here or on another edge): its next use goes to the TokenStore. */
  forget(tokenId: string): void {
    this.verified.forget(tokenId);
  }

  /**
   * A bearer token wins when one is sent (its scopes and session binding apply); otherwise the
   * verified client certificate's identity is the principal (binding §7.1.2), with the configured scopes.
   */
  async authenticate(token: string | undefined, certificate?: string, address?: string): Promise<Principal> {
    try {
      return await this.resolve(token, certificate);
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
      this.onFailure(err.reason);
      // A refused token is charged to its address after the lookup: a valid one never waits here.
      if (address !== undefined && token && this.enabled) this.throttle?.failed(address);
      throw err;
    }
  }

  private async resolve(token: string | undefined, certificate?: string): Promise<Principal> {
    if (!this.enabled) return ANONYMOUS;
    if (!token && certificate !== undefined) {
      return { id: `cert:${certificate}`, kind: 'certificate', scopes: new Set(this.certificateScopes) };
    }
    if (!token) throw new AuthError('missing', 'a bearer token is required');
    const hash = hashToken(token);
    const cached = this.verified.get(hash);
    if (cached && (cached.expiresAt === undefined || cached.expiresAt > this.clock.now()))
      return this.principalOf(cached);
    const epoch = this.verified.begin();
    const rec = await this.tokens.findByHash(hash);
    if (!rec) throw new AuthError('invalid', 'the bearer token is not valid');
    if (rec.revokedAt !== undefined) throw new AuthError('revoked', 'the bearer token has been revoked');
    if (rec.expiresAt !== undefined && rec.expiresAt <= this.clock.now())
      throw new AuthError('expired', 'the bearer token has expired');
    // last_used_at is written on a store lookup only: accurate to the cache's lifetime (5 s).
    void this.tokens.touch(rec.tokenId, this.clock.now()).catch(() => undefined);
    this.verified.remember(hash, rec, epoch);
    return this.principalOf(rec);
  }

  private principalOf(rec: TokenRecord): Principal {
    let p = this.principals.get(rec);
    if (!p) {
      p = principalOf(rec);
      this.principals.set(rec, p);
    }
    return p;
  }
}

export function principalOf(rec: TokenRecord): Principal {
  const p: Principal = {
    id: `token:${rec.tokenId}`,
    scopes: new Set(rec.scopes),
    instanceId: rec.instanceId,
    tokenId: rec.tokenId,
  };
  if (rec.sessionId) p.sessionId = rec.sessionId;
  if (rec.expiresAt !== undefined) p.expiresAt = rec.expiresAt;
  return p;
}

export class AuthError extends BindingError {
  constructor(
    readonly reason: AuthFailure,
    message: string,
  ) {
    super('UNAUTHENTICATED', message);
  }
}

/** `Authorization: Bearer <token>` → token. */
export function bearerFromHeader(header: string): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}
