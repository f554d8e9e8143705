import { afterAll, beforeAll } from '@jest/globals';
import { pushConfigStoreContract } from '@pty-ws/testkit/contracts';
import { openPostgresAdapters, type PostgresAdapters } from '../src';
import { createTestDatabase } from './pg-fixture';

// A database of its own; the suite gives every test its own task and instance ids.
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pg: PostgresAdapters;

beforeAll(async () => {
  db = await createTestDatabase();
  pg = await openPostgresAdapters(db.url, { schema: 'ptyws_push' });
});

afterAll(async () => {
  await pg?.close();
  await db?.drop();
});

pushConfigStoreContract('PostgreSQL', async () => ({ store: pg.pushConfigs, cleanup: async () => {} }));
