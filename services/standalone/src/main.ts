import { ConfigError, launchWarnings } from '@pty-ws/config';
import { EDGE_SERVICE, createLogger, isLogLevel, startTracing } from '@pty-ws/telemetry';
import { startNode } from './start-node';

/** `npm start`: one process, edge + agent, embedded adapters. */
async function main(): Promise<void> {
  // An invalid level is reported by the config loader below; log at info until then.
  const level = process.env['PTYWS_LOG_LEVEL']?.trim() ?? '';
  const logger = createLogger(isLogLevel(level) ? level : 'info');
  for (const w of launchWarnings()) logger.warn(w.fields, w.message);
  // Off unless OTEL_TRACES_EXPORTER / OTEL_EXPORTER_OTLP_ENDPOINT ask for it (docs/tracing.md).
  const tracing = startTracing({ serviceName: EDGE_SERVICE });
  let node;
  try {
    node = await startNode({}, { logger, tracing });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`pty-ws: invalid configuration\n${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`pty-ws: failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const { config } = node;
  process.stdout.write(
    [
      '',
      `pty-ws listening on ${node.httpUrl} (instance '${node.instanceId}', single-node mode)`,
      `  attach:    ${node.wsUrl}/agents/${node.instanceId}/sessions/{session_id}/attach`,
      `  agent card ${node.httpUrl}/agents/${node.instanceId}/.well-known/agent-card.json`,
      `  metrics:   ${node.httpUrl}/metrics`,
      ...(node.grpcPort !== undefined
        ? [
            `  gRPC:      ${node.config.grpcHost ?? node.host}:${node.grpcPort} (lf.a2a.v1.A2AService, ptyws.admin.v1.AdminService)`,
          ]
        : []),
      ...(node.agentMetricsPort !== undefined
        ? [`  agent metrics server on port ${node.agentMetricsPort} (/metrics, /healthz, /readyz)`]
        : []),
      config.authEnabled
        ? config.adminToken
          ? '  admin token: from PTYWS_ADMIN_TOKEN'
          : `  admin token (generated, shown once): ${node.adminToken}`
        : '  auth: DISABLED (PTYWS_AUTH=disabled) — local use only',
      '',
    ].join('\n') + '\n',
  );
  // Graceful stop: not ready, binding_goodbye server_shutdown + close 1000 to every socket, listener
  // closed, sessions ended (Closed instance_terminated); past PTYWS_GRACE_PERIOD_S the exit is forced.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, grace_period_s: config.gracePeriodS }, 'shutting down');
    const forced = setTimeout(() => {
      logger.error({ signal, grace_period_s: config.gracePeriodS }, 'grace period over: forcing exit');
      process.exit(1);
    }, config.gracePeriodS * 1000);
    try {
      await node.stop();
    } catch (err) {
      logger.error({ err: (err as Error).message }, 'shutdown failed');
      process.exit(1);
    }
    clearTimeout(forced);
    await tracing.shutdown().catch(() => undefined);
    logger.info({ signal }, 'stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

void main();
