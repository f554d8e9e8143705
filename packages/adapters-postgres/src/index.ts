/** Cluster implementations of the ports on PostgreSQL: sessions, tokens and tasks. */
export { connectPostgres, redactPostgresUrl, type ConnectPostgresOptions } from './connect';
export { migrate, MIGRATIONS, type Migration } from './migrations';
export { openPostgresAdapters, type OpenPostgresOptions, type PostgresAdapters } from './open';
export { PgSessionRegistry } from './session-registry';
export { PgTokenStore } from './token-store';
export { PgTaskStore, type TaskFilter } from './task-store';
