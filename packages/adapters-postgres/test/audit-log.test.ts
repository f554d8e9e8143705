import { afterAll, beforeAll } from '@jest/globals';
import { auditLogContract } from '@pty-ws/testkit/contracts';
import { PgAuditLog, openPostgresAdapters, type PostgresAdapters } from '../src';
import { createTestDatabase } from './pg-fixture';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pg: PostgresAdapters;

beforeAll(async () => {
  db = await createTestDatabase();
  pg = await openPostgresAdapters(db.url, { schema: 'ptyws_audit' });
});

afterAll(async () => {
  await pg?.close();
  await db?.drop();
});

// A fresh sink per test on the shared table: the suite's ids keep tests apart.
auditLogContract('PostgreSQL', async () => ({
  log: new PgAuditLog(pg.pool, 'ptyws_audit'),
  reopen: async () => new PgAuditLog(pg.pool, 'ptyws_audit'),
  cleanup: async () => {},
}));
