import { afterAll, beforeAll } from '@jest/globals';
import { pushOutboxContract } from '@pty-ws/testkit/contracts';
import { openPostgresAdapters, PgPushOutbox, type PostgresAdapters } from '../src';
import { createTestDatabase } from './pg-fixture';

// A database of its own; the suite gives every test its own owner id.
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pg: PostgresAdapters;

beforeAll(async () => {
  db = await createTestDatabase();
  pg = await openPostgresAdapters(db.url, { schema: 'ptyws_outbox' });
});

afterAll(async () => {
  await pg?.close();
  await db?.drop();
});

pushOutboxContract('PostgreSQL', async () => ({
  outbox: pg.pushOutbox,
  // A restarted agent reads the same table.
  reopen: async () => new PgPushOutbox(pg.pool, 'ptyws_outbox'),
  cleanup: async () => {},
}));
