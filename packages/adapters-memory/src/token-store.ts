import type { TokenRecord, TokenStore } from '@pty-ws/ports';

/**
 * The embedded TokenStore. `findByHash` runs on every authenticated request, so hashes are
 * indexed. Revoked and expired tokens are still returned: deciding validity is the caller's job,
 * and it needs the record to say why a token was refused.
 */
export class MemoryTokenStore implements TokenStore {
  private readonly byId = new Map<string, TokenRecord>();
  private readonly idByHash = new Map<string, string>();

  /** Rejects a duplicate tokenId or hash: either would make lookups ambiguous. */
  async insert(record: TokenRecord): Promise<void> {
    if (this.byId.has(record.tokenId)) throw new Error(`token ${record.tokenId} already exists`);
    if (this.idByHash.has(record.hash)) throw new Error(`a token with this hash already exists`);
    this.byId.set(record.tokenId, structuredClone(record));
    this.idByHash.set(record.hash, record.tokenId);
  }

  async findByHash(hash: string): Promise<TokenRecord | undefined> {
    const tokenId = this.idByHash.get(hash);
    return tokenId === undefined ? undefined : this.copyOf(tokenId);
  }

  async get(tokenId: string): Promise<TokenRecord | undefined> {
    return this.copyOf(tokenId);
  }

  /** In insertion order. */
  async list(filter: { instanceId?: string } = {}): Promise<TokenRecord[]> {
    const out: TokenRecord[] = [];
    for (const record of this.byId.values()) {
      if (filter.instanceId === undefined || record.instanceId === filter.instanceId) out.push(structuredClone(record));
    }
    return out;
  }

  /** Revoking again keeps the first revocation time, so the audit trail says when it really happened. */
  async revoke(tokenId: string, atMs: number): Promise<boolean> {
    const record = this.byId.get(tokenId);
    if (!record) return false;
    if (record.revokedAt === undefined) record.revokedAt = atMs;
    return true;
  }

  /** Best-effort bookkeeping: unknown tokens are ignored, and concurrent requests never move it back. */
  async touch(tokenId: string, atMs: number): Promise<void> {
    const record = this.byId.get(tokenId);
    if (record) record.lastUsedAt = Math.max(record.lastUsedAt ?? atMs, atMs);
  }

  private copyOf(tokenId: string): TokenRecord | undefined {
    const record = this.byId.get(tokenId);
    return record && structuredClone(record);
  }
}
