import { loadConfig, type Config } from '@pty-ws/config';
import {
  MemoryFrameLog,
  MemoryMembershipStore,
  MemorySessionRegistry,
  MemoryTaskStore,
  MemoryTokenStore,
} from '@pty-ws/adapters-memory';
import { generateToken, hashToken, silentLogger, startEdge, type Logger } from '@pty-ws/edge';
import { createSessionManager } from '@pty-ws/pty-agent';
import { SCOPES, newId } from '@pty-ws/protocol';
import { Metrics, startMetricsServer, type RunningMetricsServer } from '@pty-ws/telemetry';
import type { RunningNode } from './node';

export interface StartOptions {
  logger?: Logger;
  /** Environment to read PTYWS_* from; tests pass `{}` so the caller's shell cannot leak in. */
  env?: NodeJS.ProcessEnv;
  /** The metrics of this node (edge + agent share one registry); default a fresh one. */
  metrics?: Metrics;
}

/** Single-node mode: edge and agent in one process over the embedded (in-memory) adapters. */
export async function startNode(overrides: Partial<Config> = {}, opts: StartOptions = {}): Promise<RunningNode> {
  const config = loadConfig(opts.env ?? process.env, overrides);
  const logger = opts.logger ?? silentLogger;
  const metrics = opts.metrics ?? new Metrics();
  const log = new MemoryFrameLog();
  const registry = new MemorySessionRegistry();
  const tokens = new MemoryTokenStore();
  const adminToken = config.adminToken ?? generateToken();
  await tokens.insert({
    tokenId: newId(),
    hash: hashToken(adminToken),
    scopes: [...SCOPES],
    instanceId: config.instanceId,
    label: config.adminToken ? 'admin (PTYWS_ADMIN_TOKEN)' : 'admin (generated at start)',
    createdBy: 'startup',
    createdAt: Date.now(),
  });

  const { manager: agent, sessionHost } = createSessionManager(
    config,
    { registry, log, membershipStore: new MemoryMembershipStore(), taskStore: new MemoryTaskStore() },
    logger,
    metrics,
  );

  const edge = await startEdge({
    config,
    control: agent,
    log,
    registry,
    tokens,
    logger,
    sessionHost,
    metrics,
  });
  // The agent's own /metrics server only when asked for: its default port would clash between nodes.
  let stopping = false;
  let agentServer: RunningMetricsServer | undefined;
  const env = opts.env ?? process.env;
  if (overrides.agentMetricsPort !== undefined || (env['PTYWS_AGENT_METRICS_PORT'] ?? '').trim() !== '') {
    try {
      agentServer = await startMetricsServer(metrics.registry, config.host, config.agentMetricsPort, () => !stopping);
    } catch (err) {
      await edge.stop();
      await agent.shutdown();
      throw err;
    }
  }
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const tls = config.tlsCert !== undefined && config.tlsKey !== undefined;
  return {
    config,
    host: config.host,
    port: edge.port,
    instanceId: config.instanceId,
    adminToken,
    httpUrl: `${tls ? 'https' : 'http'}://${host}:${edge.port}`,
    wsUrl: `${tls ? 'wss' : 'ws'}://${host}:${edge.port}`,
    metrics,
    ...(agentServer ? { agentMetricsPort: agentServer.port } : {}),
    async stop() {
      stopping = true;
      await edge.stop();
      await agent.shutdown();
      await agentServer?.close();
    },
  };
}
