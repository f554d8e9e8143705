import type { Pool } from 'pg';
import { assertSchemaName } from './sql';

export interface Migration {
  version: number;
  name: string;
  /** SQL for the schema `s` (already quoted). Never edit a released one: add the next version. */
  sql: (s: string) => string;
}

/**
 * Numbered, append-only. Timestamps are epoch milliseconds (bigint) like the ports. `tasks.task`
 * is `json`, not `jsonb`: jsonb cannot hold U+0000, and a task's artifacts carry command output,
 * which may contain it; the filters use the plain columns, so nothing needs jsonb's operators.
 * Task ids sort bytewise (COLLATE "C") so the keyset order does not depend on the database locale.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions, tokens, tasks',
    sql: (s) => `
      CREATE TABLE ${s}.sessions (
        session_id  text PRIMARY KEY,
        instance_id text NOT NULL,
        agent_id    text NOT NULL,
        state       text NOT NULL,
        -- Listing order: insertion, kept by a put that replaces (like the memory registry).
        position    bigint GENERATED ALWAYS AS IDENTITY,
        record      jsonb NOT NULL
      );
      CREATE INDEX sessions_instance_state ON ${s}.sessions (instance_id, state, position);

      CREATE TABLE ${s}.tokens (
        token_id     text PRIMARY KEY,
        -- SHA-256 of the token; the token itself is never stored.
        hash         text NOT NULL UNIQUE,
        instance_id  text NOT NULL,
        session_id   text,
        scopes       text[] NOT NULL,
        label        text,
        created_by   text NOT NULL,
        created_at   bigint NOT NULL,
        expires_at   bigint,
        last_used_at bigint,
        revoked_at   bigint,
        position     bigint GENERATED ALWAYS AS IDENTITY
      );
      CREATE INDEX tokens_instance ON ${s}.tokens (instance_id, position);

      CREATE TABLE ${s}.tasks (
        task_id            text COLLATE "C" PRIMARY KEY,
        session_id         text NOT NULL,
        instance_id        text NOT NULL,
        state              text NOT NULL,
        context_id         text,
        created_at         bigint NOT NULL,
        updated_at         bigint NOT NULL,
        task               json NOT NULL,
        service_parameters json
      );
      CREATE INDEX tasks_instance_order ON ${s}.tasks (instance_id, created_at DESC, task_id DESC);
      CREATE INDEX tasks_session_order ON ${s}.tasks (session_id, created_at DESC, task_id DESC);
    `,
  },
  {
    version: 2,
    name: 'transcript chunks',
    sql: (s) => `
      -- The TranscriptArchive: gzip JSONL chunks of a session's frame log, one row per chunk.
      CREATE TABLE ${s}.transcript_chunks (
        session_id text NOT NULL,
        first_seq  bigint NOT NULL,
        last_seq   bigint NOT NULL,
        first_ts   bigint NOT NULL,
        last_ts    bigint NOT NULL,
        frames     integer NOT NULL,
        data       bytea NOT NULL,
        PRIMARY KEY (session_id, first_seq)
      );
      -- Already gzip: store out of line without a second (pglz) compression attempt.
      ALTER TABLE ${s}.transcript_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
    `,
  },
  {
    version: 3,
    name: 'audit log',
    sql: (s) => `
      -- The AuditLog of cluster mode: written in batches by every edge; never terminal bytes or tokens.
      CREATE TABLE ${s}.audit_log (
        id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at          bigint NOT NULL,
        type        text NOT NULL,
        instance_id text NOT NULL,
        session_id  text,
        principal   text NOT NULL,
        client_id   text,
        edge_id     text,
        disclosure  boolean NOT NULL,
        detail      jsonb NOT NULL
      );
      CREATE INDEX audit_log_instance ON ${s}.audit_log (instance_id, id);
      CREATE INDEX audit_log_session ON ${s}.audit_log (session_id, id);
      CREATE INDEX audit_log_principal ON ${s}.audit_log (principal, id);
      CREATE INDEX audit_log_at ON ${s}.audit_log (instance_id, at);
    `,
  },
  {
    version: 4,
    name: 'push notification configs',
    sql: (s) => `
      -- A2A TaskPushNotificationConfigs; read by the task's owner agent on every status update.
      CREATE TABLE ${s}.push_configs (
        task_id        text COLLATE "C" NOT NULL,
        config_id      text COLLATE "C" NOT NULL,
        instance_id    text NOT NULL,
        url            text NOT NULL,
        token          text,
        authentication jsonb,
        created_at     bigint NOT NULL,
        PRIMARY KEY (task_id, config_id)
      );
    `,
  },
  {
    version: 5,
    name: 'push notification outbox',
    sql: (s) => `
      -- Push notifications not yet delivered: written before the first attempt, deleted after
      -- success or give-up; a restarted agent resumes its owner's rows in id order.
      CREATE TABLE ${s}.push_outbox (
        id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        owner          text NOT NULL,
        task_id        text NOT NULL,
        config_id      text NOT NULL,
        url            text NOT NULL,
        token          text,
        authentication jsonb,
        body           text NOT NULL,
        created_at     bigint NOT NULL
      );
      CREATE INDEX push_outbox_owner ON ${s}.push_outbox (owner, id);
    `,
  },
  {
    version: 6,
    name: 'A2A contexts bound to sessions',
    sql: (s) => `
      -- The session an A2A context's messages run in when the client named none; every edge
      -- reads and claims here, and closes the session once the context has been idle.
      CREATE TABLE ${s}.a2a_contexts (
        instance_id  text NOT NULL,
        context_id   text NOT NULL,
        session_id   text NOT NULL,
        principal_id text NOT NULL,
        created_at   bigint NOT NULL,
        last_used_at bigint NOT NULL,
        PRIMARY KEY (instance_id, context_id)
      );
      CREATE INDEX a2a_contexts_last_used ON ${s}.a2a_contexts (last_used_at);
    `,
  },
];

/**
 * Brings `schema` up to the newest migration; a no-op when it is there. Runs in one transaction
 * under an advisory lock, so processes starting together neither race on the DDL nor see half a
 * schema (PostgreSQL DDL is transactional). Returns the versions it applied.
 */
export async function migrate(pool: Pool, schema: string): Promise<number[]> {
  assertSchemaName(schema);
  const s = `"${schema}"`;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`pty-ws migrations ${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
        version    integer PRIMARY KEY,
        name       text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const done = await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`);
    const have = new Set(done.rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (have.has(m.version)) continue;
      await client.query(m.sql(s));
      await client.query(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw new Error(`migrating PostgreSQL schema '${schema}' failed: ${(error as Error).message}`, { cause: error });
  } finally {
    client.release();
  }
}
