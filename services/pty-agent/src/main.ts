import { loadConfig, ConfigError } from '@pty-ws/config';
import { openClusterBackend, ClusterConfigError } from '@pty-ws/cluster';
import { serveSessionControl } from '@pty-ws/control-nats';
import { createLogger, isLogLevel, Metrics, startMetricsServer } from '@pty-ws/telemetry';
import { createSessionManager } from './create-agent';
import { closeOrphanedSessions } from './orphans';

/** `npm run agent`: owns the PTYs of this host in cluster mode; edges reach it over NATS. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(isLogLevel(config.logLevel) ? config.logLevel : 'info', { service: 'pty-ws-agent' });
  const backend = await openClusterBackend(config, `agent-${config.agentId}`);
  const metrics = new Metrics({ labels: { agent: config.agentId } });

  const orphans = await closeOrphanedSessions(config.agentId, config.instanceId, backend.pg.sessions, backend.log);
  if (orphans.length > 0)
    logger.warn({ sessions: orphans }, 'closed sessions whose processes died with the previous agent');

  const manager = createSessionManager(
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

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'agent shutting down');
    const force = setTimeout(() => process.exit(1), config.gracePeriodS * 1000);
    force.unref();
    await server.stop();
    await manager.shutdown();
    await health.close();
    await backend.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  const known = err instanceof ConfigError || err instanceof ClusterConfigError;
  process.stderr.write(`pty-ws agent: ${known ? '' : 'failed to start: '}${(err as Error).message}\n`);
  process.exit(known ? 2 : 1);
});
