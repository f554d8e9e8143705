import {
  BindingError,
  newId,
  type PtyRole,
  type SessionHostCapabilities,
  type Task,
  type TerminalSize,
} from '@pty-ws/protocol';
import type {
  CreateSessionRequest,
  FrameLog,
  JoinRequest,
  JoinResult,
  Keyframe,
  ScreenFormat,
  SessionScreen,
  ManagedPtyHost,
  ManagedPtyProcess,
  MembershipStore,
  PtyHost,
  PtyProcess,
  RetentionPolicy,
  RoleChangeResult,
  SendMessageRequest,
  SessionControl,
  SessionRecord,
  SessionRegistry,
  TranscriptArchive,
} from '@pty-ws/ports';
import { sessionEndedError } from '@pty-ws/ports';
import type { AgentMetrics } from '@pty-ws/telemetry';
import { launchSpec, liveShellExecutor, type LiveShellConfig } from '../shell/live-shell-setup';
import { recoverManagedSessions, type RecoveryReport } from '../hosts/managed-recovery';
import { buildSessionSpec, type SpecDefaults } from './session-spec';
import type { SessionCaps } from './session-caps';
import { SessionRuntime, type RuntimeOptions } from './session-runtime';
import type { TaskExecutor } from '../tasks/task-executor';
import { RetentionJanitor } from '../retention/retention-janitor';
import type { ArchiverOptions } from '../archive/transcript-archiver';
import { TaskService, type TaskContext } from '../tasks/task-service';

export interface AgentDeps {
  agentId: string;
  instanceId: string;
  registry: SessionRegistry;
  log: FrameLog;
  membershipStore: MembershipStore;
  ptyHost: PtyHost;
  tasks: TaskService;
  retention: RetentionPolicy;
  closedSessionTtlMs: number;
  defaults: SpecDefaults;
  runtime: Omit<RuntimeOptions, 'log' | 'membershipStore' | 'retention' | 'metrics'>;
  metrics?: AgentMetrics;
  /** What the ptyHost can run (binding §5.1); default SESSION_HOST. */
  sessionHost?: SessionHostCapabilities;
  /** The multiplexer backends among the ptyHost's, for detach and recovery. */
  managedHosts?: readonly ManagedPtyHost[];
  /** Enables `task_executor: live_shell`; without it such sessions use the process executor. */
  liveShell?: LiveShellConfig;
  /** Running-session caps per agent and per instance; absent: unlimited (unit harnesses). */
  sessionCaps?: SessionCaps;
  /**
   * The durable transcript: every log entry is archived before the log may evict it. Without
   * one, evicted frames are gone (transcripts then cover the replay window only).
   */
  archive?: TranscriptArchive;
  archiver?: Omit<ArchiverOptions, 'logger'>;
}

/**
 * The pty-agent's side of SessionControl: owns the runtimes of the sessions placed on this agent.
 * It is what an edge calls in-process (single node) or through the NATS adapter (cluster).
 */
export class SessionManager implements SessionControl {
  private readonly runtimes = new Map<string, SessionRuntime>();
  private readonly liveShells = new Map<string, TaskExecutor>();
  private readonly janitor: RetentionJanitor;
  private readonly untrackSessions: (() => void) | undefined;
  /** Final archive flushes of sessions that closed on their own: shutdown waits for them too. */
  private readonly closingArchives = new Set<Promise<void>>();

  constructor(private readonly deps: AgentDeps) {
    this.janitor = new RetentionJanitor({ ...deps, runtimeOf: (id) => this.runtimes.get(id) });
    this.untrackSessions = deps.metrics?.trackSessions(() => this.sessionSamples());
  }

  /** ptyws_sessions: the live runtimes (closed ones leave the map). */
  private *sessionSamples(): Iterable<{ state: 'running' | 'closing' | 'closed'; backend: string }> {
    for (const rt of this.runtimes.values()) yield { state: rt.lifecycle, backend: rt.record.spec.backend };
  }

  get sessionCount(): number {
    return this.runtimes.size;
  }

  async createSession(req: CreateSessionRequest): Promise<SessionRecord> {
    if (req.instanceId !== this.deps.instanceId) {
      throw new BindingError(
        'INVALID_REQUEST',
        `instance '${req.instanceId}' is not served by agent ${this.deps.agentId}`,
      );
    }
    const release = await this.deps.sessionCaps?.admit(this.runtimes.size);
    try {
      return await this.spawnSession(req);
    } finally {
      release?.();
    }
  }

  private async spawnSession(req: CreateSessionRequest): Promise<SessionRecord> {
    const spec = buildSessionSpec(req, this.deps.defaults, this.deps.sessionHost);
    const sessionId = req.sessionId ?? newId();
    const record: SessionRecord = {
      sessionId,
      instanceId: this.deps.instanceId,
      agentId: this.deps.agentId,
      spec,
      state: 'starting',
      createdAt: Date.now(),
      initialSize: { ...spec.size },
    };
    let proc;
    try {
      proc = await this.deps.ptyHost.spawn(sessionId, launchSpec(spec, this.deps.liveShell));
    } catch (err) {
      throw new BindingError('INVALID_REQUEST', `could not start ${spec.argv[0]}: ${(err as Error).message}`);
    }
    record.pid = proc.pid;
    record.state = 'running';
    await this.deps.registry.put(record);
    await this.startRuntime(record, proc);
    return record;
  }

  /** Runs a session on a started process, continuing its frame log (creation and re-attach). */
  private async startRuntime(record: SessionRecord, proc: PtyProcess): Promise<SessionRuntime> {
    const sessionId = record.sessionId;
    const bounds = await this.deps.log.bounds(sessionId);
    const runtime = new SessionRuntime(record, proc, bounds.lastSeq, {
      ...this.deps.runtime,
      log: this.deps.log,
      retention: this.deps.retention,
      membershipStore: this.deps.membershipStore,
      metrics: this.deps.metrics,
      ...(this.deps.archive ? { archive: this.deps.archive } : {}),
      ...(this.deps.archiver ? { archiver: this.deps.archiver } : {}),
    });
    runtime.onSizeFollowed = () => void this.saveSize(runtime);
    runtime.onClosed = (exitCode, reason) => {
      this.runtimes.delete(sessionId);
      // Closing the archiver again resolves once the runtime's own final flush is done.
      const archived = runtime.archiver?.close();
      if (archived) {
        this.closingArchives.add(archived);
        void archived.finally(() => this.closingArchives.delete(archived));
      }
      this.liveShells.delete(sessionId);
      void this.deps.tasks.cancelAll(this.taskContext(runtime)).catch(() => undefined);
      void this.deps.registry.update(sessionId, {
        state: 'closed',
        closedAt: Date.now(),
        exitCode,
        closedReason: reason,
      });
      void this.deps.membershipStore.remove(sessionId).catch(() => undefined);
    };
    this.runtimes.set(sessionId, runtime);
    const executor = liveShellExecutor(record.spec, proc, this.deps.liveShell, this.deps.tasks.executor);
    if (executor) this.liveShells.set(sessionId, executor);
    return runtime;
  }

  async killSession(sessionId: string): Promise<void> {
    const rt = this.runtimes.get(sessionId);
    if (!rt) {
      const rec = await this.deps.registry.get(sessionId);
      if (!rec) throw new BindingError('TASK_NOT_FOUND', `session ${sessionId} not found`);
      return; // already closed: killing is idempotent
    }
    await rt.kill('killed');
  }

  /** Stops every session (agent shutdown): `Closed` reason instance_terminated. */
  async shutdown(): Promise<void> {
    await this.janitor.dispose();
    const runtimes = [...this.runtimes.values()];
    await Promise.all(runtimes.map((rt) => rt.kill('instance_terminated')));
    // The last frames (Closed included) reach the transcript archive before the process goes.
    const flushes = [...runtimes.map((rt) => rt.archiver?.close()), ...this.closingArchives];
    await Promise.all(flushes.map((f) => withTimeout(f, ARCHIVE_FLUSH_ON_STOP_MS)));
    this.untrackSessions?.();
  }

  /**
   * Lets go of every managed session without ending it (agent restart over durable adapters: call
   * before shutdown(), which then ends only what cannot survive). No `Closed` is logged for them.
   */
  async detachAll(): Promise<string[]> {
    const ids = await Promise.all([...this.runtimes].map(async ([id, rt]) => ((await rt.detach()) ? id : '')));
    const detached = ids.filter((id) => id !== '');
    for (const id of detached) {
      this.runtimes.delete(id);
      this.liveShells.delete(id);
    }
    return detached;
  }

  /** Re-attaches the multiplexer sessions this agent's registry records say are running (agent start). */
  recoverManagedSessions(): Promise<RecoveryReport> {
    return recoverManagedSessions({
      agentId: this.deps.agentId,
      instanceId: this.deps.instanceId,
      registry: this.deps.registry,
      log: this.deps.log,
      hosts: this.deps.managedHosts ?? [],
      isRunning: (id) => this.runtimes.has(id),
      attach: (record: SessionRecord, proc: ManagedPtyProcess) => this.startRuntime(record, proc),
      logger: this.deps.runtime.logger,
    });
  }

  join(sessionId: string, req: JoinRequest): Promise<JoinResult> {
    return this.runtime(sessionId).join(req);
  }

  async leave(sessionId: string, clientId: string): Promise<void> {
    await this.runtimes.get(sessionId)?.leave(clientId);
  }

  setRole(sessionId: string, clientId: string, role: PtyRole, canControl: boolean): Promise<RoleChangeResult> {
    return this.runtime(sessionId).setRole(clientId, role, canControl);
  }

  async releaseEdge(edgeId: string): Promise<void> {
    for (const rt of this.runtimes.values()) rt.releaseEdge(edgeId);
  }

  async input(sessionId: string, clientId: string, data: Uint8Array): Promise<void> {
    this.runtime(sessionId).input(clientId, data);
  }

  async resize(sessionId: string, clientId: string, size: TerminalSize): Promise<void> {
    const rt = this.runtime(sessionId);
    await rt.resize(clientId, size);
    await this.saveSize(rt);
  }

  /** The registry shows the live geometry (sessions API, ptyctl show), not the creation size. */
  private async saveSize(rt: SessionRuntime): Promise<void> {
    rt.record.spec = { ...rt.record.spec, size: rt.currentSize };
    await this.deps.registry.update(rt.sessionId, { spec: rt.record.spec }).catch(() => undefined);
  }

  keyframe(sessionId: string): Promise<Keyframe> {
    return this.runtime(sessionId).keyframe();
  }

  async screen(sessionId: string, format: ScreenFormat): Promise<SessionScreen> {
    const rt = this.runtimes.get(sessionId);
    if (!rt) throw sessionEndedError(sessionId);
    return rt.screen(format);
  }

  /** A session that has ended (or moved) has no output to hold: the report is dropped. */
  async pace(sessionId: string, edgeId: string, behind: boolean): Promise<boolean> {
    return this.runtimes.get(sessionId)?.pace(edgeId, behind) ?? false;
  }

  async sendMessage(sessionId: string, req: SendMessageRequest): Promise<Task> {
    return this.deps.tasks.send(this.taskContext(this.runtime(sessionId)), req.message, req.serviceParameters);
  }

  createTask(sessionId: string, req: SendMessageRequest): Promise<Task> {
    return this.deps.tasks.create(
      this.taskContext(this.runtime(sessionId)),
      req.message,
      req.serviceParameters,
      req.taskId,
    );
  }

  async runTask(sessionId: string, taskId: string): Promise<void> {
    await this.deps.tasks.run(this.taskContext(this.runtime(sessionId)), taskId);
  }

  getTask(sessionId: string, taskId: string, historyLength?: number): Promise<Task> {
    return this.deps.tasks.get(sessionId, taskId, historyLength);
  }

  listTasks(sessionId: string, q: { pageSize: number; pageToken?: string; state?: string; contextId?: string }) {
    return this.deps.tasks.list(sessionId, q);
  }

  async cancelTask(sessionId: string, taskId: string): Promise<Task> {
    const rt = this.runtimes.get(sessionId);
    if (!rt) {
      // The session closed: its tasks were canceled with it, or never existed.
      const task = await this.deps.tasks.get(sessionId, taskId);
      throw new BindingError('TASK_NOT_CANCELABLE', `task ${task.id} is already ${task.status.state}`);
    }
    return this.deps.tasks.cancel(this.taskContext(rt), taskId);
  }

  private runtime(sessionId: string): SessionRuntime {
    const rt = this.runtimes.get(sessionId);
    if (!rt) throw new BindingError('INVALID_REQUEST', `session ${sessionId} is not running on this agent`);
    return rt;
  }

  private taskContext(rt: SessionRuntime): TaskContext {
    return {
      sessionId: rt.sessionId,
      instanceId: rt.record.instanceId,
      cwd: rt.record.spec.cwd,
      env: rt.record.spec.env,
      sequencer: rt.sequencer,
      executor: this.liveShells.get(rt.sessionId),
    };
  }

  /** Live member counts of a session running here (undefined otherwise). */
  memberCounts(sessionId: string): { controllers: number; observers: number } | undefined {
    return this.runtimes.get(sessionId)?.memberCounts();
  }
}

/** How long shutdown waits for the transcript archive to take the last chunks. */
const ARCHIVE_FLUSH_ON_STOP_MS = 5000;

function withTimeout(p: Promise<void> | undefined, ms: number): Promise<void> {
  if (!p) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    p.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}
