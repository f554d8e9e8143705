import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Pool } from 'pg';
import { SequenceConflictError, type OutputEntry, type TaskRecord } from '@pty-ws/ports';
import { encodePageToken as memoryPageToken } from '@pty-ws/ports';
import { uniqueId } from '@pty-ws/testkit/contracts';
import {
  connectPostgres,
  migrate,
  MIGRATIONS,
  openPostgresAdapters,
  PgTaskStore,
  PgTranscriptArchive,
  redactPostgresUrl,
  type PostgresAdapters,
} from '../src';
import { createTestDatabase } from './pg-fixture';

const T0 = 1_700_000_000_000;

function outputs(from: number, to: number): OutputEntry[] {
  return Array.from({ length: to - from + 1 }, (_, i) => ({
    type: 'output' as const,
    seq: from + i,
    id: uniqueId('entry'),
    ts: T0 + from + i,
    stream: 'stdout' as const,
    data: new TextEncoder().encode(`line ${from + i}\r\n`),
  }));
}

function task(instanceId: string, createdAt: number, text = 'hi'): TaskRecord {
  return {
    task: {
      id: uniqueId('task'),
      context_id: 'ctx',
      status: { state: 'COMPLETED', timestamp: new Date(createdAt).toISOString() },
      artifacts: [{ artifact_id: 'a1', parts: [{ text }] }],
    },
    sessionId: 'session-1',
    instanceId,
    createdAt,
    updatedAt: createdAt,
  };
}

describe('PostgreSQL adapters beyond the contracts', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pg: PostgresAdapters;

  beforeAll(async () => {
    db = await createTestDatabase();
    pg = await openPostgresAdapters(db.url, { schema: 'ptyws_extra' });
  });

  afterAll(async () => {
    await pg?.close();
    await db?.drop();
  });

  it('migrates once: re-running, also concurrently from several pools, applies nothing twice', async () => {
    const pools = [0, 1, 2].map(() => new Pool({ connectionString: db.url }));
    try {
      const applied = await Promise.all(pools.map((p) => migrate(p, 'ptyws_concurrent')));
      expect(applied.flat()).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await migrate(pools[0] as Pool, 'ptyws_concurrent')).toEqual([]);
      expect(await migrate(pg.pool, 'ptyws_extra')).toEqual([]);
      const versions = await pg.pool.query('SELECT version FROM ptyws_concurrent.schema_migrations');
      expect(versions.rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('stores a token hash and no token column', async () => {
    const columns = await pg.pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'ptyws_extra' AND table_name = 'tokens'`,
    );
    const names = columns.rows.map((r) => r.column_name);
    expect(names).toContain('hash');
    expect(names.filter((n) => n.includes('token') && n !== 'token_id')).toEqual([]);
  });

  it('keeps schemas of one database apart', async () => {
    const other = new PgTaskStore(pg.pool, 'ptyws_concurrent');
    const r = task(uniqueId('instance'), T0);
    await pg.tasks.insert(r);
    expect(await other.get(r.task.id)).toBeUndefined();
  });

  it('round-trips task output holding NUL and other control characters', async () => {
    const r = task(uniqueId('instance'), T0, 'a\u0000b\u001b[31mred\u001b[0m\ud83d\ude00');
    await pg.tasks.insert(r);
    expect(await pg.tasks.get(r.task.id)).toEqual(r);
    const updated = await pg.tasks.update({ ...r, updatedAt: T0 + 5 }, r.updatedAt);
    expect(updated?.task).toEqual(r.task);
  });

  it('accepts page tokens in the memory store format', async () => {
    const instanceId = uniqueId('instance');
    const records = [0, 1, 2, 3].map((i) => task(instanceId, T0 + i));
    for (const r of records) await pg.tasks.insert(r);
    const newest = records[3] as TaskRecord;
    const token = memoryPageToken({ createdAt: newest.createdAt, taskId: newest.task.id });
    const page = await pg.tasks.list({ instanceId }, 2, token);
    expect(page.tasks.map((t) => t.task.id)).toEqual([records[2]?.task.id, records[1]?.task.id]);
    expect(page.nextPageToken).toBe(memoryPageToken({ createdAt: T0 + 1, taskId: records[1]?.task.id ?? '' }));
  });

  it('archives an owner’s next chunk in one query; a writer whose memory is stale asks the table', async () => {
    const pool = new Pool({ connectionString: db.url });
    try {
      const queries = jest.spyOn(pool, 'query');
      const owner = new PgTranscriptArchive(pool, 'ptyws_extra');
      const other = new PgTranscriptArchive(pool, 'ptyws_extra');
      const sessionId = uniqueId('session');
      await owner.append(sessionId, outputs(1, 3)); // first chunk: reads the head, then inserts
      queries.mockClear();
      await owner.append(sessionId, outputs(4, 6));
      expect(queries).toHaveBeenCalledTimes(1); // the insert only
      await other.append(sessionId, outputs(7, 9)); // another process (a takeover) moves the head
      queries.mockClear();
      await owner.append(sessionId, outputs(7, 12)); // stale memory: 7..9 are there already
      expect(queries.mock.calls.length).toBeGreaterThan(1);
      await expect(owner.append(sessionId, outputs(20, 21))).rejects.toBeInstanceOf(SequenceConflictError);
      expect((await owner.read(sessionId, 0)).map((e) => e.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(await owner.stats(sessionId)).toMatchObject({ firstSeq: 1, lastSeq: 12, frames: 12 });
    } finally {
      await pool.end();
    }
  });

  it('removes a session field patched to undefined, like the memory registry', async () => {
    const sessionId = uniqueId('session');
    await pg.sessions.put({
      sessionId,
      instanceId: uniqueId('instance'),
      agentId: 'agent-1',
      spec: {
        argv: ['/bin/sh'],
        cwd: '/',
        env: {},
        size: { cols: 80, rows: 24 },
        backend: 'native',
        sessionClass: 'direct',
      },
      state: 'running',
      createdAt: T0,
      pid: 42,
    });
    const updated = await pg.sessions.update(sessionId, { pid: undefined, state: 'closed' });
    expect(updated && 'pid' in updated).toBe(false);
    expect((await pg.sessions.list({ state: 'closed' })).map((s) => s.sessionId)).toContain(sessionId);
    await pg.sessions.delete(sessionId);
  });
});

describe('connectPostgres', () => {
  it('names the server without the password, and the failure', async () => {
    const attempt = connectPostgres('postgres://postgres:s3cret@127.0.0.1:1/nope', { connectionTimeoutMillis: 2000 });
    await expect(attempt).rejects.toThrow(
      /^cannot connect to PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/nope: \S/,
    );
    await expect(attempt).rejects.not.toThrow(/s3cret/);
  });

  it('says which database is missing', async () => {
    const url = new URL(process.env.PTYWS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    url.pathname = '/ptyws_no_such_database';
    await expect(connectPostgres(url.toString())).rejects.toThrow(/ptyws_no_such_database.*does not exist/);
  });

  it('redacts keyword/value connection strings too', () => {
    expect(redactPostgresUrl("host=db user=app password='a b' dbname=x")).toBe(
      'host=db user=app password=*** dbname=x',
    );
  });
});
