import type { Pool } from 'pg';
import { connectPostgres, type ConnectPostgresOptions } from './connect';
import { migrate } from './migrations';
import { PgSessionRegistry } from './session-registry';
import { PgTaskStore } from './task-store';
import { PgTokenStore } from './token-store';
import { assertSchemaName } from './sql';

export interface PostgresAdapters {
  pool: Pool;
  sessions: PgSessionRegistry;
  tokens: PgTokenStore;
  tasks: PgTaskStore;
  /** Ends the pool. */
  close(): Promise<void>;
}

export interface OpenPostgresOptions extends ConnectPostgresOptions {
  /** Schema holding the tables (default `ptyws`), so deployments or tests can share a database. */
  schema?: string;
}

/** What a service does at start: connect (clear error if it cannot), migrate, build the stores. */
export async function openPostgresAdapters(url: string, options: OpenPostgresOptions = {}): Promise<PostgresAdapters> {
  const { schema = 'ptyws', ...connectOptions } = options;
  assertSchemaName(schema);
  const pool = await connectPostgres(url, connectOptions);
  try {
    await migrate(pool, schema);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    pool,
    sessions: new PgSessionRegistry(pool, schema),
    tokens: new PgTokenStore(pool, schema),
    tasks: new PgTaskStore(pool, schema),
    close: () => pool.end(),
  };
}
