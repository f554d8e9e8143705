import type { Pool } from 'pg';
import type { TokenRecord, TokenStore } from '@pty-ws/ports';
import type { Scope } from '@pty-ws/protocol';
import { optionalMillis, qualified, toMillis, uniqueViolation } from './sql';

interface TokenRow {
  token_id: string;
  hash: string;
  instance_id: string;
  session_id: string | null;
  scopes: Scope[];
  label: string | null;
  created_by: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

const COLUMNS =
  'token_id, hash, instance_id, session_id, scopes, label, created_by, created_at, expires_at, last_used_at, revoked_at';

/**
 * TokenStore on table `tokens`: one column per field, so revoke and touch are single-column
 * updates. Only the SHA-256 hash is stored (the record has no token field to store). Revoked and
 * expired tokens are still returned, like the memory store: the caller decides validity.
 */
export class PgTokenStore implements TokenStore {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.table = qualified(schema, 'tokens');
  }

  /** Rejects a duplicate tokenId or hash: either would make lookups ambiguous. */
  async insert(t: TokenRecord): Promise<void> {
    try {
      await this.pool.query(
        `INSERT INTO ${this.table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          t.tokenId,
          t.hash,
          t.instanceId,
          t.sessionId ?? null,
          t.scopes,
          t.label ?? null,
          t.createdBy,
          t.createdAt,
          t.expiresAt ?? null,
          t.lastUsedAt ?? null,
          t.revokedAt ?? null,
        ],
      );
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === undefined) throw error;
      // The hash is a credential: say which kind of duplicate, never the value.
      throw new Error(
        constraint.endsWith('_pkey') ? `token ${t.tokenId} already exists` : 'a token with this hash already exists',
      );
    }
  }

  async findByHash(hash: string): Promise<TokenRecord | undefined> {
    const r = await this.pool.query<TokenRow>(`SELECT ${COLUMNS} FROM ${this.table} WHERE hash = $1`, [hash]);
    return r.rows[0] && fromRow(r.rows[0]);
  }

  async get(tokenId: string): Promise<TokenRecord | undefined> {
    const r = await this.pool.query<TokenRow>(`SELECT ${COLUMNS} FROM ${this.table} WHERE token_id = $1`, [tokenId]);
    return r.rows[0] && fromRow(r.rows[0]);
  }

  /** In insertion order. */
  async list(filter: { instanceId?: string } = {}): Promise<TokenRecord[]> {
    const r = await this.pool.query<TokenRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE ($1::text IS NULL OR instance_id = $1) ORDER BY position`,
      [filter.instanceId ?? null],
    );
    return r.rows.map(fromRow);
  }

  /** Revoking again keeps the first revocation time, so the audit trail says when it really happened. */
  async revoke(tokenId: string, atMs: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE ${this.table} SET revoked_at = COALESCE(revoked_at, $2) WHERE token_id = $1`,
      [tokenId, atMs],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** Best-effort bookkeeping: unknown tokens are ignored, and concurrent requests never move it back. */
  async touch(tokenId: string, atMs: number): Promise<void> {
    await this.pool.query(`UPDATE ${this.table} SET last_used_at = GREATEST(last_used_at, $2) WHERE token_id = $1`, [
      tokenId,
      atMs,
    ]);
  }
}

function fromRow(row: TokenRow): TokenRecord {
  const t: TokenRecord = {
    tokenId: row.token_id,
    hash: row.hash,
    scopes: row.scopes,
    instanceId: row.instance_id,
    createdBy: row.created_by,
    createdAt: toMillis(row.created_at),
  };
  if (row.session_id !== null) t.sessionId = row.session_id;
  if (row.label !== null) t.label = row.label;
  const expiresAt = optionalMillis(row.expires_at);
  if (expiresAt !== undefined) t.expiresAt = expiresAt;
  const lastUsedAt = optionalMillis(row.last_used_at);
  if (lastUsedAt !== undefined) t.lastUsedAt = lastUsedAt;
  const revokedAt = optionalMillis(row.revoked_at);
  if (revokedAt !== undefined) t.revokedAt = revokedAt;
  return t;
}
