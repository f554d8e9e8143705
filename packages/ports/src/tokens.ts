import type { Scope } from '@pty-ws/protocol';

/** A bearer token as stored: only its SHA-256 hash, never the token. */
export interface TokenRecord {
  tokenId: string;
  hash: string;
  scopes: Scope[];
  instanceId: string;
  /** When set, the token is valid for this one session only. */
  sessionId?: string;
  label?: string;
  createdBy: string;
  createdAt: number;
  expiresAt?: number;
  lastUsedAt?: number;
  revokedAt?: number;
}

export interface TokenStore {
  insert(record: TokenRecord): Promise<void>;
  findByHash(hash: string): Promise<TokenRecord | undefined>;
  get(tokenId: string): Promise<TokenRecord | undefined>;
  list(filter?: { instanceId?: string }): Promise<TokenRecord[]>;
  /** Marks the token revoked; returns false if it was unknown. Idempotent. */
  revoke(tokenId: string, atMs: number): Promise<boolean>;
  touch(tokenId: string, atMs: number): Promise<void>;
}
