import type { Pool } from 'pg';
import { connectPostgres, type ConnectPostgresOptions } from './connect';
import { migrate } from './migrations';
import { PgSessionRegistry } from './session-registry';
import { PgTaskStore } from './task-store';
import { PgPushConfigStore } from './push-config-store';
import { PgContextSessionStore } from './context-session-store';
import { PgPushOutbox } from './push-outbox';
import { PgTokenStore } from './token-store';
import { PgTranscriptArchive } from './transcript-archive';
import { assertSchemaName } from './sql';
import { traceQueries } from './traced-queries';

export interface PostgresAdapters {
  pool: Pool;
  sessions: PgSessionRegistry;
  tokens: PgTokenStore;
  tasks: PgTaskStore;
  pushConfigs: PgPushConfigStore;
  contexts: PgContextSessionStore;
  pushOutbox: PgPushOutbox;
  transcripts: PgTranscriptArchive;
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
  traceQueries(pool, schema);
  return {
    pool,
    sessions: new PgSessionRegistry(pool, schema),
    tokens: new PgTokenStore(pool, schema),
    tasks: new PgTaskStore(pool, schema),
    pushConfigs: new PgPushConfigStore(pool, schema),
    contexts: new PgContextSessionStore(pool, schema),
    pushOutbox: new PgPushOutbox(pool, schema),
    transcripts: new PgTranscriptArchive(pool, schema),
    close: () => pool.end(),
  };
}
