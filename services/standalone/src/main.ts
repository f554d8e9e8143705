import pino from 'pino';
import { ConfigError } from '@pty-ws/config';
import { startNode } from './start-node';

/** `npm start`: one process, edge + agent, embedded adapters. */
async function main(): Promise<void> {
  const logger = pino({ level: process.env['PTYWS_LOG_LEVEL'] ?? 'info', base: { service: 'pty-ws' } });
  let node;
  try {
    node = await startNode({}, { logger });
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
      config.authEnabled
        ? config.adminToken
          ? '  admin token: from PTYWS_ADMIN_TOKEN'
          : `  admin token (generated, shown once): ${node.adminToken}`
        : '  auth: DISABLED (PTYWS_AUTH=disabled) — local use only',
      '',
    ].join('\n') + '\n',
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await node.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

void main();
