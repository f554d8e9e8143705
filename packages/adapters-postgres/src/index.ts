/** Cluster implementations of the ports on PostgreSQL: sessions, tokens, tasks and transcript archives. */
export { connectPostgres, redactPostgresUrl, type ConnectPostgresOptions } from './connect';
export { PgAuditLog, type PgAuditOptions } from './audit-log';
export { migrate, MIGRATIONS, type Migration } from './migrations';
export { openPostgresAdapters, type OpenPostgresOptions, type PostgresAdapters } from './open';
export { PgSessionRegistry } from './session-registry';
export { PgTokenStore } from './token-store';
export { PgTaskStore, type TaskFilter } from './task-store';
export { PgPushConfigStore } from './push-config-store';
export { PgContextSessionStore } from './context-session-store';
export { PgPushOutbox } from './push-outbox';
export { PgTranscriptArchive } from './transcript-archive';
export { isPostgresOutage } from './outage';
