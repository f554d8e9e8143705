import type { Config } from '@pty-ws/config';
import type { SessionHostCapabilities } from '@pty-ws/protocol';
import { PushDispatcher, WebhookAddressPolicy, WebhookDeliverer, type PushMetrics } from '@pty-ws/a2a';
import type {
  FrameLog,
  MembershipStore,
  PushConfigStore,
  PushOutbox,
  SessionControl,
  SessionRegistry,
  TaskStore,
  TranscriptArchive,
} from '@pty-ws/ports';
import { globalTracer, type AgentMetrics, type Tracer } from '@pty-ws/telemetry';
import { refuseDumps } from './hosts/no-dump';
import { closeFdsBinary } from './hosts/session-command';
import { configuredSessionIdentity, identityEnv } from './hosts/session-identity';
import { SessionHosts } from './hosts/session-hosts';
import { pathWatch } from './hosts/path-watch';
import { sessionLimitsWrapper } from './hosts/session-limits';
import { checkStateDir } from './state-dir';
import { announceAlternativePaths } from './alternative-paths';
import { ArchiveQuota } from './archive/archive-quota';
import { DEFAULT_ARCHIVER_OPTIONS } from './archive/transcript-archiver';
import { SessionCaps } from './session/session-caps';
import { SessionManager } from './session/session-manager';
import { ShellTaskExecutor } from './tasks/task-executor';
import { TaskService } from './tasks/task-service';
import { tracedControl } from './session/traced-control';
import { primeMirror } from './mirror/terminal-mirror';
import { sharedShellIntegration } from './shell/live-shell-setup';

export interface AgentStores {
  registry: SessionRegistry;
  log: FrameLog;
  membershipStore: MembershipStore;
  taskStore: TaskStore;
  /** Durable transcript (file in single-node mode, Postgres in cluster mode). */
  transcripts?: TranscriptArchive;
  /**
   * A2A push notification configs: the agent owns its sessions' task updates, so it is where
   * each update is posted to the task's webhooks, once. Absent: no push notifications.
   */
  push?: {
    configs: PushConfigStore;
    metrics?: PushMetrics;
    /**
     * Where undelivered notifications wait (Postgres in cluster mode, a file under the state dir
     * in single-node mode), owned by this agent id; call `webhooks.resume()` at start to deliver
     * what the previous process left. Absent: they are lost with the process.
     */
    outbox?: PushOutbox;
  };
}

export interface CreatedAgent {
  manager: SessionManager;
  /** The manager as edges should call it: each call a span of the agent's service. */
  control: SessionControl;
  /** What this agent can host (native, plus tmux/screen when installed): hello advertises it. */
  sessionHost: SessionHostCapabilities;
  /** Posts push notifications (when `stores.push` was given); stop it on shutdown. */
  webhooks?: WebhookDeliverer;
  /** Settles once the keyframe code is compiled (primeMirror): await it before serving. */
  primed: Promise<void>;
}

/** Builds an agent's SessionManager from configuration: the same in single-node and cluster mode. */
export function createSessionManager(
  config: Config,
  stores: AgentStores,
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void },
  metrics?: AgentMetrics,
  /** Where the agent's spans go; default the process's global provider. */
  tracer: Tracer = globalTracer('@pty-ws/pty-agent'),
): CreatedAgent {
  checkStateDir(config.stateDir);
  // Sessions' programs may not read this process's memory or environment (its spawner does the same).
  if (!refuseDumps())
    logger.warn({}, 'no-dump library not built (no C compiler at build time): the agent stays dumpable');
  if (!closeFdsBinary())
    logger.warn(
      {},
      "close-fds not built (no C compiler at build time): sessions' programs inherit the agent's descriptors",
    );
  const identity = configuredSessionIdentity(config.sessionUser, (fields, msg) => logger.warn(fields, msg));
  // native, plus tmux/screen when installed, on sockets private to this agent id.
  const streamRelay = config.streamRelay === 'on';
  const limitArgv = sessionLimitsWrapper({
    maxProcesses: config.sessionMaxProcs,
    maxMemoryBytes: config.sessionMaxMemoryBytes,
    maxFileBytes: config.sessionMaxFileBytes,
    maxOpenFiles: config.sessionMaxOpenFiles,
  });
  const watch = pathWatch(metrics, (fields, msg) => logger.warn(fields, msg));
  const hosts = new SessionHosts({
    stateDir: config.stateDir,
    agentId: config.agentId,
    streamRelay,
    limitArgv,
    watch,
    ...(identity ? { identity } : {}),
  });
  announceAlternativePaths(config, hosts, watch, (fields, msg) => logger.info(fields, msg));
  const webhooks = stores.push
    ? new WebhookDeliverer({
        attempts: config.pushAttempts,
        initialBackoffMs: config.pushBackoffMs,
        maxBackoffMs: 60_000,
        timeoutMs: config.pushTimeoutMs,
        // Caller-chosen URLs: no loopback/private/link-local targets unless the operator opts in.
        addresses: new WebhookAddressPolicy(config.pushAllowedHosts),
        logger,
        ...(stores.push.metrics ? { metrics: stores.push.metrics } : {}),
        ...(stores.push.outbox ? { outbox: { store: stores.push.outbox, owner: config.agentId } } : {}),
      })
    : undefined;
  const push = stores.push && webhooks ? new PushDispatcher(stores.push.configs, webhooks, logger) : undefined;
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
      outputHead: config.taskOutputHeadBytes,
      inputQuietMs: config.taskInputQuietMs,
      // A session user cannot read the state dir: its shells get a copy it can read but not change.
      integrationDir: identity ? sharedShellIntegration() : hosts.paths.shellDir,
    },
    sessionCaps: new SessionCaps({
      maxPerAgent: config.maxSessionsPerAgent,
      maxPerInstance: config.maxSessionsPerInstance,
      registry: stores.registry,
      instanceId: config.instanceId,
      agentId: config.agentId,
    }),
    tasks: new TaskService({
      store: stores.taskStore,
      executor: new ShellTaskExecutor(
        config.taskTimeoutS * 1000,
        config.taskOutputBytes,
        identity,
        config.taskOutputHeadBytes,
      ),
      logger,
      ...(push ? { onUpdate: (update) => push.taskUpdated(update) } : {}),
      tracer,
    }),
    ...(stores.transcripts ? { archive: stores.transcripts } : {}),
    ...(config.transcriptSessionBytes > 0 || config.transcriptAgentBytes > 0
      ? {
          archiver: {
            ...DEFAULT_ARCHIVER_OPTIONS,
            quota: new ArchiveQuota(config.transcriptSessionBytes, config.transcriptAgentBytes),
          },
        }
      : {}),
    retention: { minFrames: config.replayFrames, minAgeMs: config.replayRetentionS * 1000 },
    closedSessionTtlMs: config.closedSessionTtlS * 1000,
    defaults: {
      shell: config.shell,
      defaultCols: config.defaultCols,
      defaultRows: config.defaultRows,
      allowEnvOverride: config.allowEnvOverride,
      ...(config.sessionEnvAllow ? { envAllow: config.sessionEnvAllow } : {}),
      ...(identity ? { login: identityEnv(identity) } : {}),
    },
    runtime: {
      caps: {
        maxControllers: config.maxControllers,
        maxObservers: config.maxObservers,
        maxObserversPerPrincipal: config.maxObserversPerPrincipal,
      },
      keyframeIntervalMs: config.keyframeIntervalS * 1000,
      keyframeIntervalFrames: config.keyframeIntervalFrames,
      outputCoalesceMs: config.outputCoalesceMs,
      outputFrameBytes: config.outputFrameBytes,
      mirrorThread: config.mirrorThread,
      mirrorSleepMs: config.mirrorSleepS * 1000,
      logOutage: { bufferBytes: config.logOutageBufferBytes, giveUpMs: config.logOutageGiveUpS * 1000 },
      logger,
    },
    ...(metrics ? { metrics } : {}),
  });
  return {
    manager,
    primed: primeMirror(config.mirrorThread).catch((err: Error) =>
      logger.warn({ err: err.message }, 'could not prime the terminal mirror'),
    ),
    control: tracedControl(manager, tracer),
    sessionHost: hosts.capabilities,
    ...(webhooks ? { webhooks } : {}),
  };
}
