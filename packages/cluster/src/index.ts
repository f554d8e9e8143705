import type { Config } from '@pty-ws/config';
import { JetStreamFrameLog, KvMembershipStore, connectNats } from '@pty-ws/adapters-nats';
import { openPostgresAdapters, type PostgresAdapters } from '@pty-ws/adapters-postgres';
import type { NatsConnection } from '@nats-io/transport-node';
import { ClusterConfigError } from './cluster-config-error';

export { ClusterConfigError };

/** Everything a cluster-mode edge or agent shares: one NATS connection, the log, the stores. */
export interface ClusterBackend {
  nc: NatsConnection;
  log: JetStreamFrameLog;
  membership: KvMembershipStore;
  pg: PostgresAdapters;
  /** False while NATS is disconnected or Postgres stopped answering (drives /readyz). */
  healthy(): boolean;
  close(): Promise<void>;
}

/** Cluster mode needs both URLs; say so plainly instead of half-starting. */
export function requireClusterConfig(config: Config, role: string): { natsUrl: string; databaseUrl: string } {
  if (!config.natsUrl || !config.databaseUrl) {
    throw new ClusterConfigError(
      `${role} runs in cluster mode and needs PTYWS_NATS_URL and PTYWS_DATABASE_URL ` +
        `(missing: ${[!config.natsUrl && 'PTYWS_NATS_URL', !config.databaseUrl && 'PTYWS_DATABASE_URL'].filter(Boolean).join(', ')}); ` +
        'for a single process with no servers use `npm start`',
    );
  }
  return { natsUrl: config.natsUrl, databaseUrl: config.databaseUrl };
}

/** Where the backend reports what goes wrong after start (one JSON line each, as the services log). */
export interface BackendLogger {
  warn(obj: object, msg: string): void;
}

/** Connects to NATS and Postgres (clear errors naming the URL), ensures streams, buckets, tables. */
export async function openClusterBackend(
  config: Config,
  name: string,
  logger?: BackendLogger,
): Promise<ClusterBackend> {
  const { natsUrl, databaseUrl } = requireClusterConfig(config, name);
  const nc = await connectNats(natsUrl, name);
  let pg: PostgresAdapters;
  try {
    pg = await openPostgresAdapters(databaseUrl, { schema: config.dbSchema });
  } catch (err) {
    await nc.close();
    throw err;
  }
  const log = await JetStreamFrameLog.open(nc, {
    prefix: config.natsPrefix,
    replicas: config.jetstreamReplicas,
    // A read that failed while a NATS node went away (the feed retries it): a log line, not a stack on stderr.
    ...(logger && {
      onSubscriberError: (error: unknown, sessionId: string) =>
        logger.warn(
          { session_id: sessionId, err: error instanceof Error ? error.message : String(error) },
          'frame log subscriber failed',
        ),
    }),
    // Its own connection, never reconnecting, so appends can be pipelined without risking a hole.
    appendConnection: () => connectNats(natsUrl, `${name} (frame log appends)`, { reconnect: false }),
  });
  const membership = await KvMembershipStore.open(nc, {
    bucket: `${config.natsPrefix.replace(/\./g, '_')}_membership`,
    replicas: config.jetstreamReplicas,
  });

  let natsUp = true;
  let pgUp = true;
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') natsUp = false;
      if (s.type === 'reconnect') natsUp = true;
    }
  })();
  const probe = setInterval(() => {
    pg.pool.query('select 1').then(
      () => (pgUp = true),
      () => (pgUp = false),
    );
  }, 2000);
  probe.unref();

  return {
    nc,
    log,
    membership,
    pg,
    healthy: () => natsUp && pgUp && !nc.isClosed(),
    async close() {
      clearInterval(probe);
      await log.close();
      await nc.drain().catch(() => undefined);
      await pg.close().catch(() => undefined);
    },
  };
}
export { runService, type RunningService } from './run-service';
