import type { Config } from '@pty-ws/config';
import { JetStreamFrameLog, KvMembershipStore, connectNats } from '@pty-ws/adapters-nats';
import { openPostgresAdapters, type PostgresAdapters } from '@pty-ws/adapters-postgres';
import type { NatsConnection } from '@nats-io/transport-node';
import { DependencyUnavailable } from '@pty-ws/ports';
import { ClusterConfigError } from './cluster-config-error';
import { failFastWhileDown } from './dependency-guard';
import { DependencyHealth, errorSummary, type HealthLogger } from './dependency-health';
import { observeAppends, startProbes } from './readiness';
import { outageAwareStores, requestStores, type RequestStores } from './request-stores';

export { ClusterConfigError, failFastWhileDown, type HealthLogger, type RequestStores };

/** Everything a cluster-mode edge or agent shares: one NATS connection, the log, the stores. */
export interface ClusterBackend {
  nc: NatsConnection;
  log: JetStreamFrameLog;
  membership: KvMembershipStore;
  pg: PostgresAdapters;
  /** The stores and the log for requests: PTYWS_DEPENDENCY_TIMEOUT_MS deadlines, outages as DependencyUnavailable. */
  requests: RequestStores;
  /**
   * False while NATS is disconnected, the log's stream or Postgres stopped answering, or appends
   * fail (drives /readyz).
   */
  healthy(): boolean;
  /**
   * The dependency requests cannot do without that is down now — NATS disconnected or its log
   * stream not answering, Postgres not answering — or undefined (new attaches, creations: 503).
   */
  unavailable(): string | undefined;
  /**
   * Rejects with DependencyUnavailable when a dependency is known down, or Postgres does not answer
   * within the deadline: asked before a request makes an owner write (creations, tasks).
   */
  available(): Promise<void>;
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

/** Connects to NATS and Postgres (clear errors naming the URL), ensures streams, buckets, tables. */
export async function openClusterBackend(config: Config, name: string, logger?: HealthLogger): Promise<ClusterBackend> {
  const { natsUrl, databaseUrl } = requireClusterConfig(config, name);
  const nc = await connectNats(natsUrl, name);
  const health = {
    postgres: new DependencyHealth('PostgreSQL', logger),
    nats: new DependencyHealth('NATS', logger),
    appends: new DependencyHealth('the frame log (appends)', logger),
  };
  let pg: PostgresAdapters;
  try {
    pg = await openPostgresAdapters(databaseUrl, {
      schema: config.dbSchema,
      // A pooled connection Postgres closed: one short line (pg's error holds its whole Client).
      onIdleError: (err) => health.postgres.outage(errorSummary(err)),
    });
  } catch (err) {
    await nc.close();
    throw err;
  }
  const log = await JetStreamFrameLog.open(nc, {
    prefix: config.natsPrefix,
    replicas: config.jetstreamReplicas,
    onSubscriberError: (err, sessionId) =>
      logger?.warn({ session_id: sessionId, error: errorSummary(err) }, 'frame log subscriber failed'),
    // Its own connection, never reconnecting, so appends can be pipelined without risking a hole.
    appendConnection: () => connectNats(natsUrl, `${name} (frame log appends)`, { reconnect: false }),
  });
  const membership = await KvMembershipStore.open(nc, {
    bucket: `${config.natsPrefix.replace(/\./g, '_')}_membership`,
    replicas: config.jetstreamReplicas,
  });

  let natsUp = true;
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') {
        natsUp = false;
        // Down until JetStream answers again (a probe or a call), not merely until a reconnect.
        health.nats.outage('disconnected');
      }
      if (s.type === 'reconnect') natsUp = true;
    }
  })();
  const unavailable = (): string | undefined =>
    !natsUp || nc.isClosed() || !health.nats.up ? 'NATS' : health.postgres.up ? undefined : 'PostgreSQL';
  observeAppends(log, health.appends);
  const requests = requestStores(pg, log, membership, health, config.dependencyTimeoutMs);
  const probes = startProbes(pg.pool, log, health);

  return {
    nc,
    log,
    membership,
    pg: outageAwareStores(pg, health.postgres),
    requests,
    healthy: () => natsUp && !nc.isClosed() && health.nats.up && health.postgres.up && health.appends.up,
    unavailable,
    available: () => {
      const down = unavailable();
      return down ? Promise.reject(new DependencyUnavailable(down, 'not answering')) : requests.pingPostgres();
    },
    async close() {
      probes.stop();
      await log.close();
      await nc.drain().catch(() => undefined);
      await pg.close().catch(() => undefined);
    },
  };
}
export { runService, type RunningService } from './run-service';
