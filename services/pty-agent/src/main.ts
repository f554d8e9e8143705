import {
  AGENT_METRICS_SPARE_PORTS,
  dropSecretVariables,
  loadConfig,
  launchWarnings,
  variableIsSet,
} from '@pty-ws/config';
import { openClusterBackend, runService, type RunningService } from '@pty-ws/cluster';
import { serveSessionControl, startAgentPresence } from '@pty-ws/control-nats';
import {
  AGENT_SERVICE,
  createLogger,
  isLogLevel,
  Metrics,
  pushNotificationMetrics,
  startMetricsServer,
  startTracing,
} from '@pty-ws/telemetry';
import { createSessionManager } from './create-agent';
import { closeOrphanedSessions } from './session/orphans';

/** `npm run agent`: owns the PTYs of this host in cluster mode; edges reach it over NATS. */
async function main(): Promise<RunningService> {
  const config = loadConfig();
  dropSecretVariables(); // read: nothing started from here inherits them
  // Off unless OTEL_TRACES_EXPORTER / OTEL_EXPORTER_OTLP_ENDPOINT ask for it (docs/tracing.md).
  const tracing = startTracing({ serviceName: AGENT_SERVICE });
  const logger = createLogger(isLogLevel(config.logLevel) ? config.logLevel : 'info', { service: 'pty-ws-agent' });
  for (const w of launchWarnings()) logger.warn(w.fields, w.message);
  const backend = await openClusterBackend(config, `agent-${config.agentId}`, logger);
  const metrics = new Metrics({ labels: { agent: config.agentId } });

  const orphans = await closeOrphanedSessions(config.agentId, config.instanceId, backend.pg.sessions, backend.log);
  if (orphans.length > 0)
    logger.warn({ sessions: orphans }, 'closed sessions whose processes died with the previous agent');

  const { manager, control, sessionHost, webhooks, primed } = createSessionManager(
    config,
    {
      registry: backend.pg.sessions,
      log: backend.log,
      membershipStore: backend.membership,
      taskStore: backend.pg.tasks,
      transcripts: backend.pg.transcripts,
      push: {
        configs: backend.pg.pushConfigs,
        metrics: pushNotificationMetrics(metrics.registry),
        outbox: backend.pg.pushOutbox,
      },
    },
    logger,
    metrics,
  );
  await primed;
  // Notifications the previous process of this agent id had not delivered yet (killed, or its
  // shutdown drain ran out) go out again.
  const resumed = (await webhooks?.resume()) ?? 0;
  if (resumed > 0) logger.info({ notifications: resumed }, 'resumed pending push notifications');
  // Multiplexer sessions outlive an agent: re-attach them, continuing their logs.
  const recovered = await manager.recoverManagedSessions();
  logger.info({ recovered }, 'managed sessions recovered');
  const server = serveSessionControl(backend.nc, {
    prefix: config.natsPrefix,
    agentId: config.agentId,
    instanceId: config.instanceId,
    control, // each call a span, child of the edge's (trace context in the NATS headers)
    logger,
  });
  // Edges advertise in binding_hello what the live agents host, and place sessions accordingly.
  const presence = startAgentPresence(backend.nc, {
    prefix: config.natsPrefix,
    agentId: config.agentId,
    instanceId: config.instanceId,
    sessionHost,
  });
  // The server has the control subscriptions before anyone is told this agent serves: an edge
  // asking right after the line below got "no responders" under load.
  await backend.nc.flush();
  let stopping = false;
  // A second agent on this host finds the default port taken: it moves up rather than failing.
  const health = await startMetricsServer(
    metrics.registry,
    config.host,
    config.agentMetricsPort,
    () => !stopping && backend.healthy(),
    { tryNextPorts: variableIsSet(process.env, 'agentMetricsPort') ? 0 : AGENT_METRICS_SPARE_PORTS },
  );
  if (health.port !== config.agentMetricsPort && config.agentMetricsPort !== 0)
    logger.warn(
      { wanted: config.agentMetricsPort, port: health.port },
      'the default metrics port is taken (another agent on this host?): set PTYWS_AGENT_METRICS_PORT to choose one',
    );
  process.stdout.write(
    `pty-ws agent '${config.agentId}' serving instance '${config.instanceId}' (metrics on http://${config.host}:${health.port}/metrics)\n`,
  );

  return {
    logger,
    gracePeriodS: config.gracePeriodS,
    async stop() {
      stopping = true; // readyz turns 503 first
      await presence.stop();
      await server.stop();
      await manager.detachAll(); // managed sessions keep running for the next agent
      await manager.shutdown();
      await webhooks?.drain(2000); // the final updates of the tasks shutdown canceled; the rest stay in the outbox
      await health.close();
      await backend.close();
      await tracing.shutdown().catch(() => undefined);
    },
  };
}

runService('agent', main);
