import path from 'node:path';
import { dropSecretVariables, loadConfig, variableIsSet, type Config } from '@pty-ws/config';
import {
  FilePushOutbox,
  MemoryContextSessionStore,
  FileTranscriptArchive,
  MemoryFrameLog,
  MemoryMembershipStore,
  MemoryPushConfigStore,
  MemorySessionRegistry,
  MemoryTaskStore,
  MemoryTokenStore,
} from '@pty-ws/adapters-memory';
import { generateToken, hashToken, openJsonLinesAudit, silentLogger, startEdge, type Logger } from '@pty-ws/edge';
import { A2aCore, ContextSessions } from '@pty-ws/a2a';
import { checkStateDir, createSessionManager } from '@pty-ws/pty-agent';
import { SCOPES, newId } from '@pty-ws/protocol';
import {
  AGENT_SERVICE,
  Metrics,
  pushNotificationMetrics,
  startMetricsServer,
  type RunningMetricsServer,
  type Tracing,
} from '@pty-ws/telemetry';
import type { RunningNode } from './node';

export interface StartOptions {
  logger?: Logger;
  /** Environment to read PTYWS_* from; tests pass `{}` so the caller's shell cannot leak in. */
  env?: NodeJS.ProcessEnv;
  /** The metrics of this node (edge + agent share one registry); default a fresh one. */
  metrics?: Metrics;
  /**
   * Started tracing (startTracing): the agent half reports as its own service (pty-ws-agent);
   * the edge half uses the global provider. Absent: both use the global provider.
   */
  tracing?: Tracing;
}

/** Single-node mode: edge and agent in one process over the embedded (in-memory) adapters. */
export async function startNode(overrides: Partial<Config> = {}, opts: StartOptions = {}): Promise<RunningNode> {
  const config = loadConfig(opts.env ?? process.env, overrides);
  if (!opts.env) dropSecretVariables(); // read: nothing started from here inherits them
  const logger = opts.logger ?? silentLogger;
  const metrics = opts.metrics ?? new Metrics();
  checkStateDir(config.stateDir); // before anything is written there
  // Frames evicted from the in-memory log outlive it here (compressed chunks per session).
  const transcripts = new FileTranscriptArchive(config.transcriptDir ?? path.join(config.stateDir, 'pty-transcripts'));
  // Only the newest archived frames stay in memory; replay reads older ones back from the files.
  const log = new MemoryFrameLog({ spill: { archive: transcripts, hotBytes: config.logMemoryBytes } });
  const registry = new MemorySessionRegistry();
  const tokens = new MemoryTokenStore();
  const membershipStore = new MemoryMembershipStore();
  // Sessions of an earlier run are unknown to the new registry: their files past the closed-session
  // TTL would never be removed otherwise (younger ones go at a later start).
  const pruned = await transcripts.pruneStale(config.closedSessionTtlS * 1000).catch((err: Error) => {
    logger.warn({ err: err.message }, 'could not prune old transcript files');
    return 0;
  });
  if (pruned > 0) logger.info({ sessions: pruned }, 'pruned transcript files of earlier runs');
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

  // Tasks and push configs are shared by the agent (writes, webhooks) and the A2A core (reads).
  const taskStore = new MemoryTaskStore();
  const pushConfigs = new MemoryPushConfigStore();
  // Undelivered push notifications outlive a restart of the node (a file under the state dir).
  const pushOutbox = new FilePushOutbox(path.join(config.stateDir, 'push-outbox.jsonl'));
  const {
    manager: agent,
    control,
    sessionHost,
    webhooks,
    primed,
  } = createSessionManager(
    config,
    {
      registry,
      log,
      membershipStore,
      taskStore,
      transcripts,
      push: { configs: pushConfigs, metrics: pushNotificationMetrics(metrics.registry), outbox: pushOutbox },
    },
    logger,
    metrics,
    ...(opts.tracing ? [opts.tracing.tracer(AGENT_SERVICE)] : []),
  );

  await primed;
  // What the previous run left undelivered goes out again (an unreadable outbox only loses that).
  await webhooks?.resume().catch((err: Error) => logger.warn({ err: err.message }, 'push outbox unreadable'));
  // Audit trail: JSON lines (default <stateDir>/audit.jsonl), queryable at GET /api/v1/audit.
  const audit = await openJsonLinesAudit(config, 'single-node', logger, metrics);
  // Sessions for A2A clients that name none, one per context, closed once idle.
  const contexts = new ContextSessions({
    store: new MemoryContextSessionStore(),
    registry,
    tasks: taskStore,
    control,
    idleMs: config.contextSessionIdleS * 1000,
    logger,
  });
  // The edge starts last; if it cannot (its port is taken), what started before it is let go again.
  const letGo = async () => {
    await contexts.dispose();
    await agent.shutdown();
    await pushOutbox.close();
    await audit?.close();
  };
  const edge = await startEdge({
    config,
    control,
    log,
    registry,
    tokens,
    transcripts,
    membership: membershipStore,
    logger,
    sessionHost,
    metrics,
    ...(audit ? { audit } : {}),
    a2a: new A2aCore({ control, tasks: taskStore, registry, log, pushConfigs, contexts }),
  }).catch(async (err: unknown) => {
    await letGo();
    throw err;
  });
  contexts.start();
  // The agent's own /metrics server only when asked for: its default port would clash between nodes.
  let stopping = false;
  let agentServer: RunningMetricsServer | undefined;
  const env = opts.env ?? process.env;
  if (overrides.agentMetricsPort !== undefined || variableIsSet(env, 'agentMetricsPort')) {
    try {
      agentServer = await startMetricsServer(metrics.registry, config.host, config.agentMetricsPort, () => !stopping);
    } catch (err) {
      await edge.stop();
      await letGo();
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
    ...(edge.grpcPort !== undefined ? { grpcPort: edge.grpcPort } : {}),
    metrics,
    ...(agentServer ? { agentMetricsPort: agentServer.port } : {}),
    async stop() {
      stopping = true;
      await contexts.dispose();
      await edge.stop();
      await agent.shutdown();
      await webhooks?.drain(1000);
      await pushOutbox.close();
      await agentServer?.close();
      await audit?.close();
    },
  };
}
