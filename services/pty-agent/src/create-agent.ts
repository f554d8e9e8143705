import type { Config } from '@pty-ws/config';
import type { SessionHostCapabilities } from '@pty-ws/protocol';
import type { FrameLog, MembershipStore, SessionRegistry, TaskStore } from '@pty-ws/ports';
import type { AgentMetrics } from '@pty-ws/telemetry';
import { SessionHosts } from './session-hosts';
import { SessionManager } from './session-manager';
import { ShellTaskExecutor } from './task-executor';
import { TaskService } from './task-service';

export interface AgentStores {
  registry: SessionRegistry;
  log: FrameLog;
  membershipStore: MembershipStore;
  taskStore: TaskStore;
}

export interface CreatedAgent {
  manager: SessionManager;
  /** What this agent can host (native, plus tmux/screen when installed): hello advertises it. */
  sessionHost: SessionHostCapabilities;
}

/** Builds an agent's SessionManager from configuration: the same in single-node and cluster mode. */
export function createSessionManager(
  config: Config,
  stores: AgentStores,
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void },
  metrics?: AgentMetrics,
): CreatedAgent {
  // native, plus tmux/screen when installed, on sockets private to this agent id.
  const hosts = new SessionHosts({ stateDir: config.stateDir, agentId: config.agentId });
  const manager = new SessionManager({
    agentId: config.agentId,
    instanceId: config.instanceId,
    registry: stores.registry,
    log: stores.log,
    membershipStore: stores.membershipStore,
    ptyHost: hosts,
    sessionHost: hosts.capabilities,
    managedHosts: hosts.managed,
    liveShell: {
      timeoutMs: config.taskTimeoutS * 1000,
      outputLimit: config.taskOutputBytes,
      integrationDir: hosts.paths.shellDir,
    },
    tasks: new TaskService(stores.taskStore, new ShellTaskExecutor(config.taskTimeoutS * 1000, config.taskOutputBytes)),
    retention: { minFrames: config.replayFrames, minAgeMs: config.replayRetentionS * 1000 },
    closedSessionTtlMs: config.closedSessionTtlS * 1000,
    defaults: {
      shell: config.shell,
      defaultCols: config.defaultCols,
      defaultRows: config.defaultRows,
      allowEnvOverride: config.allowEnvOverride,
    },
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
  return { manager, sessionHost: hosts.capabilities };
}
