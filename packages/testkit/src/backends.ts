/** The machine's NATS and Postgres as the cluster tests use them: per-run databases and streams. */

export const NATS_URL = process.env['PTYWS_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
/** A database to connect to for CREATE/DROP DATABASE. */
export const PG_ADMIN_URL = process.env['PTYWS_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** `url` with its database replaced by `db`. */
export function databaseUrl(db: string, url = PG_ADMIN_URL): string {
  return url.replace(/\/[^/]*$/, `/${db}`);
}

export async function withPg<T>(url: string, fn: (q: (sql: string) => Promise<unknown>) => Promise<T>): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client } = require('pg') as {
    Client: new (o: { connectionString: string }) => {
      connect(): Promise<void>;
      query(s: string): Promise<unknown>;
      end(): Promise<void>;
    };
  };
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn((sql) => c.query(sql));
  } finally {
    await c.end();
  }
}

/** Deletes what a run left in JetStream: its frame stream and membership bucket. */
export async function dropNatsState(natsUrl: string, prefix: string): Promise<void> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { connect } = require('@nats-io/transport-node') as typeof import('@nats-io/transport-node');
  const { jetstreamManager } = require('@nats-io/jetstream') as typeof import('@nats-io/jetstream');
  const { defaultFrameStreamName, natsServers } = require('@pty-ws/adapters-nats') as {
    defaultFrameStreamName: (p: string) => string;
    natsServers: (url: string) => string[];
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const nc = await connect({ servers: natsServers(natsUrl), timeout: 2000, reconnect: false });
  try {
    const jsm = await jetstreamManager(nc);
    for (const name of [defaultFrameStreamName(prefix), `KV_${prefix}_membership`]) {
      await jsm.streams.delete(name).catch(() => undefined);
    }
  } finally {
    await nc.close();
  }
}
