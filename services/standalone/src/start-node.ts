import { loadConfig, type Config } from '@pty-ws/config';
import {
  MemoryFrameLog,
  MemoryMembershipStore,
  MemorySessionRegistry,
  MemoryTaskStore,
  MemoryTokenStore,
} from '@pty-ws/adapters-memory';
import { generateToken, hashToken, silentLogger, startEdge, type Logger } from '@pty-ws/edge';
import { NodePtyHost, SESSION_HOST, SessionManager, ShellTaskExecutor, TaskService } from '@pty-ws/pty-agent';
import { SCOPES, newId } from '@pty-ws/protocol';
import type { RunningNode } from './node';

export interface StartOptions {
  logger?: Logger;
  /** Environment to read PTYWS_* from; tests pass `{}` so the caller's shell cannot leak in. */
  env?: NodeJS.ProcessEnv;
}

/** Single-node mode: edge and agent in one process over the embedded (in-memory) adapters. */
export async function startNode(overrides: Partial<Config> = {}, opts: StartOptions = {}): Promise<RunningNode> {
  const config = loadConfig(opts.env ?? process.env, overrides);
  const logger = opts.logger ?? silentLogger;
  const log = new MemoryFrameLog();
  const registry = new MemorySessionRegistry();
  const tokens = new MemoryTokenStore();
  const tasks = new TaskService(
    new MemoryTaskStore(),
    new ShellTaskExecutor(config.taskTimeoutS * 1000, config.taskOutputBytes),
  );

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

  const agent = new SessionManager({
    agentId: config.agentId,
    instanceId: config.instanceId,
    registry,
    log,
    membershipStore: new MemoryMembershipStore(),
    ptyHost: new NodePtyHost(),
    tasks,
    retention: { minFrames: config.replayFrames, minAgeMs: config.replayRetentionS * 1000 },
    closedSessionTtlMs: config.closedSessionTtlS * 1000,
    defaults: { shell: config.shell, defaultCols: config.defaultCols, defaultRows: config.defaultRows },
    runtime: {
      caps: { maxControllers: config.maxControllers, maxObservers: config.maxObservers },
      keyframeIntervalMs: config.keyframeIntervalS * 1000,
      keyframeIntervalFrames: config.keyframeIntervalFrames,
      outputCoalesceMs: config.outputCoalesceMs,
      outputFrameBytes: config.outputFrameBytes,
      logger,
    },
  });

  const edge = await startEdge({ config, control: agent, log, registry, tokens, logger, sessionHost: SESSION_HOST });
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    config,
    host: config.host,
    port: edge.port,
    instanceId: config.instanceId,
    adminToken,
    httpUrl: `http://${host}:${edge.port}`,
    wsUrl: `ws://${host}:${edge.port}`,
    async stop() {
      await edge.stop();
      await agent.shutdown();
    },
  };
}
