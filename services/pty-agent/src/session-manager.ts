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
import type { AgentMetrics } from '@pty-ws/telemetry';
import { launchSpec, liveShellExecutor, type LiveShellConfig } from './live-shell-setup';
import { recoverManagedSessions, type RecoveryReport } from './managed-recovery';
import { buildSessionSpec, type SpecDefaults } from './session-spec';
import type { SessionCaps } from './session-caps';
import { SessionRuntime, type RuntimeOptions } from './session-runtime';
import type { TaskExecutor } from './task-executor';
import { createArchiver, type ArchiverOptions, type TranscriptArchiver } from './transcript-archiver';
import { TaskService, type TaskContext } from './task-service';

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
  private readonly janitor: NodeJS.Timeout;
  private sweeping: Promise<void> | undefined;
  private readonly untrackSessions: (() => void) | undefined;
  /** Logged once per outage, not once a second. */
  private sweepFailing = false;
  /** Archive state of sessions without a runtime here (closed, or never ours since start). */
  private readonly idleArchives = new Map<string, { archiver: TranscriptArchiver; archivedLastSeq: number }>();

  constructor(private readonly deps: AgentDeps) {
    // A sweep that cannot reach the registry (Postgres down) is simply tried again next second:
    // left unhandled, its rejection would end the agent and every session on it.
    this.janitor = setInterval(() => {
      // One sweep at a time; shutdown waits for the one in flight (it may be writing archive chunks).
      if (this.sweeping) return;
      this.sweeping = this.sweep()
        .then(
          () => {
            if (this.sweepFailing) this.deps.runtime.logger.info({}, 'janitor sweep works again');
            this.sweepFailing = false;
          },
          (err: unknown) => {
            if (!this.sweepFailing) {
              this.deps.runtime.logger.warn(
                { err: (err as Error).message },
                'janitor sweep failed; retrying every second',
              );
            }
            this.sweepFailing = true;
          },
        )
        .finally(() => {
          this.sweeping = undefined;
        });
    }, 1000);
    this.janitor.unref();
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
    runtime.onClosed = (exitCode, reason) => {
      this.runtimes.delete(sessionId);
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
    clearInterval(this.janitor);
    await this.sweeping;
    const runtimes = [...this.runtimes.values()];
    await Promise.all(runtimes.map((rt) => rt.kill('instance_terminated')));
    // The last frames (Closed included) reach the transcript archive before the process goes.
    await Promise.all(runtimes.map((rt) => withTimeout(rt.archiver?.close(), ARCHIVE_FLUSH_ON_STOP_MS)));
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
    // The registry shows the live geometry (sessions API, ptyctl show), not the creation size.
    rt.record.spec = { ...rt.record.spec, size: { ...size } };
    await this.deps.registry.update(sessionId, { spec: rt.record.spec }).catch(() => undefined);
  }

  keyframe(sessionId: string): Promise<Keyframe> {
    return this.runtime(sessionId).keyframe();
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

  /**
   * Applies retention to every session's log, never evicting what the transcript archive does
   * not hold yet; archives what sessions without a runtime left in the log (closed here, or
   * closed by a previous agent); forgets closed sessions past their TTL, archive included.
   */
  private async sweep(): Promise<void> {
    const now = Date.now();
    const seen = new Set<string>();
    for (const rec of await this.deps.registry.list({ instanceId: this.deps.instanceId })) {
      if (rec.agentId !== this.deps.agentId) continue;
      seen.add(rec.sessionId);
      if (rec.state === 'closed' && rec.closedAt && now - rec.closedAt > this.deps.closedSessionTtlMs) {
        this.idleArchives.delete(rec.sessionId);
        await this.deps.log.remove(rec.sessionId).catch(() => undefined);
        await this.deps.archive?.remove(rec.sessionId).catch(() => undefined);
        await this.deps.registry.delete(rec.sessionId).catch(() => undefined);
        continue;
      }
      const policy = await this.retentionOf(rec.sessionId).catch(() => undefined);
      if (policy) await this.deps.log.trim(rec.sessionId, policy, now).catch(() => undefined);
    }
    for (const id of this.idleArchives.keys()) if (!seen.has(id)) this.idleArchives.delete(id);
  }

  private async retentionOf(sessionId: string): Promise<RetentionPolicy> {
    const rt = this.runtimes.get(sessionId);
    if (rt) {
      this.idleArchives.delete(sessionId);
      return rt.retention();
    }
    const archive = this.deps.archive;
    if (!archive) return this.deps.retention;
    let idle = this.idleArchives.get(sessionId);
    if (!idle) {
      const archiver = createArchiver(sessionId, archive, this.deps.log, {
        ...(this.deps.archiver ? { archiver: this.deps.archiver } : {}),
        logger: this.deps.runtime.logger,
        ...(this.deps.metrics ? { metrics: this.deps.metrics } : {}),
      });
      idle = { archiver, archivedLastSeq: -1 };
      this.idleArchives.set(sessionId, idle);
    }
    // Only a log that grew since the last look needs archiving (a closed session's never does).
    const { lastSeq } = await this.deps.log.bounds(sessionId);
    if (lastSeq !== idle.archivedLastSeq) {
      await idle.archiver.catchUp();
      if (idle.archiver.archivedThrough === lastSeq) idle.archivedLastSeq = lastSeq;
    }
    return idle.archiver.guard(this.deps.retention);
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
