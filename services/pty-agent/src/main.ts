import { loadConfig } from '@pty-ws/config';
import { openClusterBackend, runService, type RunningService } from '@pty-ws/cluster';
import { serveSessionControl } from '@pty-ws/control-nats';
import { createLogger, isLogLevel, Metrics, startMetricsServer } from '@pty-ws/telemetry';
import { createSessionManager } from './create-agent';
import { closeOrphanedSessions } from './orphans';

/** `npm run agent`: owns the PTYs of this host in cluster mode; edges reach it over NATS. */
async function main(): Promise<RunningService> {
  const config = loadConfig();
  const logger = createLogger(isLogLevel(config.logLevel) ? config.logLevel : 'info', { service: 'pty-ws-agent' });
  const backend = await openClusterBackend(config, `agent-${config.agentId}`);
  const metrics = new Metrics({ labels: { agent: config.agentId } });

  const orphans = await closeOrphanedSessions(config.agentId, config.instanceId, backend.pg.sessions, backend.log);
  if (orphans.length > 0)
    logger.warn({ sessions: orphans }, 'closed sessions whose processes died with the previous agent');

  const { manager } = createSessionManager(
    config,
    {
      registry: backend.pg.sessions,
      log: backend.log,
      membershipStore: backend.membership,
      taskStore: backend.pg.tasks,
    },
    logger,
    metrics,
  );
  // Multiplexer sessions outlive an agent: re-attach them, continuing their logs.
  const recovered = await manager.recoverManagedSessions();
  logger.info({ recovered }, 'managed sessions recovered');
  const server = serveSessionControl(backend.nc, {
    prefix: config.natsPrefix,
    agentId: config.agentId,
    instanceId: config.instanceId,
    control: manager,
    logger,
  });
  let stopping = false;
  const health = await startMetricsServer(
    metrics.registry,
    config.host,
    config.agentMetricsPort,
    () => !stopping && backend.healthy(),
  );
  process.stdout.write(
    `pty-ws agent '${config.agentId}' serving instance '${config.instanceId}' (metrics on http://${config.host}:${health.port}/metrics)\n`,
  );

  return {
    logger,
    gracePeriodS: config.gracePeriodS,
    async stop() {
      stopping = true; // readyz turns 503 first
      await server.stop();
      await manager.detachAll(); // managed sessions keep running for the next agent
      await manager.shutdown();
      await health.close();
      await backend.close();
    },
  };
}

runService('agent', main);
