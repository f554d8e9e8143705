import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A role that may CREATE DATABASE; CI's .ci/run starts PostgreSQL here with trust auth. */
export const ADMIN_URL = process.env.PTYWS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin<T>(run: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

/** A database of its own for one test file: created here, dropped (connections and all) by `drop`. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ptyws_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
