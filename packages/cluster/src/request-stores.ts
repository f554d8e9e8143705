import { isNatsOutage, type JetStreamFrameLog, type KvMembershipStore } from '@pty-ws/adapters-nats';
import { isPostgresOutage, type PostgresAdapters } from '@pty-ws/adapters-postgres';
import { guardDependency } from './dependency-guard';
import type { DependencyHealth } from './dependency-health';

/** The stores and the log as requests (REST, upgrades, A2A, gRPC) use them: each call under a deadline. */
export interface RequestStores {
  sessions: PostgresAdapters['sessions'];
  tokens: PostgresAdapters['tokens'];
  tasks: PostgresAdapters['tasks'];
  pushConfigs: PostgresAdapters['pushConfigs'];
  contexts: PostgresAdapters['contexts'];
  transcripts: PostgresAdapters['transcripts'];
  log: JetStreamFrameLog;
  membership: KvMembershipStore;
  /** Resolves once Postgres answered a trivial query, within the deadline. */
  pingPostgres(): Promise<void>;
}

/**
 * Frame-log calls a request waits on with nothing to show meanwhile (a session's bounds, a task's
 * latest state). Reads that feed a replay or a transcript may take longer on a busy server and
 * only have their outage errors translated.
 */
const LOG_DEADLINE = new Set(['bounds']);

export function requestStores(
  pg: PostgresAdapters,
  log: JetStreamFrameLog,
  membership: KvMembershipStore,
  health: { postgres: DependencyHealth; nats: DependencyHealth },
  timeoutMs: number,
): RequestStores {
  const postgres = { health: health.postgres, timeoutMs, isOutage: isPostgresOutage };
  const nats = { health: health.nats, timeoutMs, isOutage: isNatsOutage };
  return {
    sessions: guardDependency(pg.sessions, postgres),
    tokens: guardDependency(pg.tokens, postgres),
    tasks: guardDependency(pg.tasks, postgres),
    pushConfigs: guardDependency(pg.pushConfigs, postgres),
    contexts: guardDependency(pg.contexts, postgres),
    // Transcript pages and searches scan archived chunks: no deadline, errors translated.
    transcripts: guardDependency(pg.transcripts, { ...postgres, deadlineFor: new Set(['stats']) }),
    log: guardDependency(log, { ...nats, deadlineFor: LOG_DEADLINE }),
    membership: guardDependency(membership, nats),
    pingPostgres: guardDependency({ ping: () => pg.pool.query('select 1').then(() => undefined) }, postgres).ping,
  };
}

/**
 * The Postgres stores with no deadline, their outage errors as DependencyUnavailable (so an owner
 * that could not write tells the edge "unavailable", which answers 503) and counted in `health`.
 */
export function outageAwareStores(pg: PostgresAdapters, health: DependencyHealth): PostgresAdapters {
  const translate = { health, timeoutMs: 0, isOutage: isPostgresOutage, deadlineFor: new Set<string>() };
  return {
    ...pg,
    sessions: guardDependency(pg.sessions, translate),
    tokens: guardDependency(pg.tokens, translate),
    tasks: guardDependency(pg.tasks, translate),
    pushConfigs: guardDependency(pg.pushConfigs, translate),
    contexts: guardDependency(pg.contexts, translate),
    pushOutbox: guardDependency(pg.pushOutbox, translate),
    transcripts: guardDependency(pg.transcripts, translate),
  };
}
