import type { Config } from '@pty-ws/config';
import type { FrameLog, MembershipStore, SessionRegistry, TaskStore } from '@pty-ws/ports';
import type { AgentMetrics } from '@pty-ws/telemetry';
import { NodePtyHost } from './node-pty-host';
import { SessionManager } from './session-manager';
import { ShellTaskExecutor } from './task-executor';
import { TaskService } from './task-service';

export interface AgentStores {
  registry: SessionRegistry;
  log: FrameLog;
  membershipStore: MembershipStore;
  taskStore: TaskStore;
}

/** Builds an agent's SessionManager from configuration: the same in single-node and cluster mode. */
export function createSessionManager(
  config: Config,
  stores: AgentStores,
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void },
  metrics?: AgentMetrics,
): SessionManager {
  return new SessionManager({
    agentId: config.agentId,
    instanceId: config.instanceId,
    registry: stores.registry,
    log: stores.log,
    membershipStore: stores.membershipStore,
    ptyHost: new NodePtyHost(),
    tasks: new TaskService(stores.taskStore, new ShellTaskExecutor(config.taskTimeoutS * 1000, config.taskOutputBytes)),
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
    ...(metrics ? { metrics } : {}),
  });
}
