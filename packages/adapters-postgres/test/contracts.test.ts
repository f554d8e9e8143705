import { afterAll, beforeAll } from '@jest/globals';
import {
  contextSessionStoreContract,
  sessionRegistryContract,
  taskStoreContract,
  tokenStoreContract,
  transcriptArchiveContract,
} from '@pty-ws/testkit/contracts';
import { openPostgresAdapters, PgTranscriptArchive, type PostgresAdapters } from '../src';
import { createTestDatabase } from './pg-fixture';

// One database for the file; the suites give every test its own instance/session/task ids.
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pg: PostgresAdapters;

beforeAll(async () => {
  db = await createTestDatabase();
  pg = await openPostgresAdapters(db.url, { schema: 'ptyws_contract' });
});

afterAll(async () => {
  await pg?.close();
  await db?.drop();
});

const noCleanup = async (): Promise<void> => {};

sessionRegistryContract('PostgreSQL', async () => ({ registry: pg.sessions, cleanup: noCleanup }));
tokenStoreContract('PostgreSQL', async () => ({ store: pg.tokens, cleanup: noCleanup }));
taskStoreContract('PostgreSQL', async () => ({ store: pg.tasks, cleanup: noCleanup }));
transcriptArchiveContract('PostgreSQL', async () => ({
  archive: pg.transcripts,
  reopen: async () => new PgTranscriptArchive(pg.pool, 'ptyws_contract'),
  cleanup: noCleanup,
}));
contextSessionStoreContract('PostgreSQL', async () => ({ store: pg.contexts, cleanup: noCleanup }));
