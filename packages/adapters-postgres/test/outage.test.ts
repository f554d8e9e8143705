import { Client, Pool } from 'pg';
import { freePort, rejectionOf } from '@pty-ws/testkit';
import { isPostgresOutage } from '../src';
import { ADMIN_URL } from './pg-fixture';

describe('isPostgresOutage', () => {
  it('is true when nothing listens where the server should be', async () => {
    const url = new URL(ADMIN_URL);
    url.port = String(await freePort());
    const pool = new Pool({ connectionString: url.toString() });
    try {
      expect(isPostgresOutage(await rejectionOf(() => pool.query('select 1')))).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it('is true when the server ends the connection (as a shutdown does: 57P01)', async () => {
    const victim = new Client({ connectionString: ADMIN_URL });
    victim.on('error', () => undefined); // the termination is also emitted on the client
    await victim.connect();
    const killer = new Client({ connectionString: ADMIN_URL });
    await killer.connect();
    try {
      const pid = ((await victim.query('select pg_backend_pid() as pid')).rows[0] as { pid: number }).pid;
      const failed = rejectionOf(() => victim.query('select pg_sleep(30)'));
      // The victim is inside its query before it is ended.
      for (;;) {
        const r = await killer.query("select 1 from pg_stat_activity where pid = $1 and state = 'active'", [pid]);
        if (r.rowCount) break;
      }
      await killer.query('select pg_terminate_backend($1)', [pid]);
      expect(isPostgresOutage(await failed)).toBe(true);
    } finally {
      await killer.end();
      await victim.end().catch(() => undefined);
    }
  });

  it('is false for a statement the server refuses', async () => {
    const pool = new Pool({ connectionString: ADMIN_URL });
    try {
      expect(isPostgresOutage(await rejectionOf(() => pool.query('selec 1')))).toBe(false);
      expect(isPostgresOutage(await rejectionOf(() => pool.query('select 1/0')))).toBe(false);
    } finally {
      await pool.end();
    }
  });

  it('is false for errors that are not the database at all', () => {
    expect(isPostgresOutage(new TypeError('x is undefined'))).toBe(false);
    expect(isPostgresOutage('ECONNREFUSED')).toBe(false);
  });
});
