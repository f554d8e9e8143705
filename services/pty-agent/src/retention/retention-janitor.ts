import type { FrameLog, RetentionPolicy, SessionRegistry, TranscriptArchive, Disposable } from '@pty-ws/ports';
import type { AgentMetrics } from '@pty-ws/telemetry';
import type { SessionRuntime } from '../session/session-runtime';
import { createArchiver, type ArchiverOptions, type TranscriptArchiver } from '../archive/transcript-archiver';

export interface JanitorDeps {
  agentId: string;
  instanceId: string;
  registry: SessionRegistry;
  log: FrameLog;
  retention: RetentionPolicy;
  closedSessionTtlMs: number;
  archive?: TranscriptArchive;
  archiver?: Omit<ArchiverOptions, 'logger'>;
  metrics?: AgentMetrics;
  /** The agent's logger (the runtime's). */
  runtime: { logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void } };
  /** The runtime of a session running on this agent, if any: its own archiver guards its log. */
  runtimeOf(sessionId: string): SessionRuntime | undefined;
}

/**
 * The agent's retention janitor: once a second it trims every session log this agent owns (the
 * larger-window rule, never past what the transcript archive holds), archives what sessions
 * without a runtime left in the log, and forgets closed sessions after PTYWS_CLOSED_SESSION_TTL_S.
 */
export class RetentionJanitor implements Disposable {
  private readonly timer: NodeJS.Timeout;
  private sweeping: Promise<void> | undefined;
  /** Logged once per outage, not once a second. */
  private sweepFailing = false;
  /** Archive state of sessions without a runtime here (closed, or never ours since start). */
  private readonly idleArchives = new Map<string, { archiver: TranscriptArchiver; archivedLastSeq: number }>();
  /**
   * Closed sessions whose archive holds their whole log: the retention they are trimmed by, and
   * nothing else (their archiver is closed and let go, and their log keeps no entries in memory).
   */
  private readonly settled = new Map<string, RetentionPolicy>();

  constructor(private readonly deps: JanitorDeps) {
    // A sweep that cannot reach the registry (Postgres down) is simply tried again next second:
    // left unhandled, its rejection would end the agent and every session on it.
    this.timer = setInterval(() => {
      // One sweep at a time; stop() waits for the one in flight (it may be writing archive chunks).
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
    this.timer.unref();
  }

  /** No more sweeps; resolves once the one in flight (if any) is done. */
  async dispose(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
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
        this.settled.delete(rec.sessionId);
        await this.deps.log.remove(rec.sessionId).catch(() => undefined);
        await this.deps.archive?.remove(rec.sessionId).catch(() => undefined);
        await this.deps.registry.delete(rec.sessionId).catch(() => undefined);
        continue;
      }
      const policy = await this.retentionOf(rec.sessionId, rec.state === 'closed').catch(() => undefined);
      if (policy) await this.deps.log.trim(rec.sessionId, policy, now).catch(() => undefined);
    }
    for (const id of this.idleArchives.keys()) if (!seen.has(id)) this.idleArchives.delete(id);
    for (const id of this.settled.keys()) if (!seen.has(id)) this.settled.delete(id);
  }

  private async retentionOf(sessionId: string, closed: boolean): Promise<RetentionPolicy> {
    const rt = this.deps.runtimeOf(sessionId);
    if (rt) {
      this.idleArchives.delete(sessionId);
      this.settled.delete(sessionId);
      return rt.retention();
    }
    const archive = this.deps.archive;
    if (!archive) return this.deps.retention;
    const settled = this.settled.get(sessionId);
    if (settled) return settled;
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
    const policy = idle.archiver.guard(this.deps.retention);
    // A closed session's log grows no more: once archived whole, its archiver has nothing left to do.
    if (!closed || idle.archivedLastSeq !== lastSeq) return policy;
    this.idleArchives.delete(sessionId);
    await idle.archiver.close();
    const ended: RetentionPolicy = { ...policy, ended: true };
    this.settled.set(sessionId, ended);
    return ended;
  }
}
