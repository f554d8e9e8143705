import {
  BindingError,
  SNAPSHOT_FORMAT,
  newId,
  type ClosedReason,
  type PtyRole,
  type TerminalSize,
} from '@pty-ws/protocol';
import type {
  FrameLog,
  JoinRequest,
  JoinResult,
  Keyframe,
  MembershipStore,
  PtyProcess,
  RetentionPolicy,
  RoleChangeResult,
  SessionRecord,
  TranscriptArchive,
} from '@pty-ws/ports';
import { isManagedPtyProcess } from '@pty-ws/ports';
import type { AgentMetrics } from '@pty-ws/telemetry';
import { TerminalState, type ScreenSnapshot } from '@pty-ws/terminal-state';
import { Membership, type Caps } from './membership';
import { OutputCoalescer } from './output-coalescer';
import { Sequencer } from './sequencer';
import { createArchiver, type ArchiverOptions, type TranscriptArchiver } from './transcript-archiver';

export interface RuntimeOptions {
  caps: Caps;
  keyframeIntervalMs: number;
  keyframeIntervalFrames: number;
  outputCoalesceMs: number;
  outputFrameBytes: number;
  log: FrameLog;
  retention: RetentionPolicy;
  membershipStore: MembershipStore;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  metrics?: AgentMetrics;
  /** Where frames go before the log may evict them; without one the log is the only history. */
  archive?: TranscriptArchive;
  archiver?: Omit<ArchiverOptions, 'logger'>;
}

type Lifecycle = 'running' | 'closing' | 'closed';

/**
 * One live session on its owner agent: the PTY, the headless terminal that mirrors it for
 * keyframes, the membership, and the sequencer that makes every shared frame a log entry.
 * Lifecycle is one-way: running → closing (process gone, draining) → closed (`Closed` logged).
 */
export class SessionRuntime {
  readonly sequencer: Sequencer;
  /** Copies the log into the transcript archive in chunks; undefined without an archive. */
  readonly archiver: TranscriptArchiver | undefined;
  private readonly membership: Membership;
  private readonly screen: TerminalState;
  private readonly coalescer: OutputCoalescer;
  private state: Lifecycle = 'running';
  private size: TerminalSize;
  private outputsSinceKeyframe = 0;
  private lastKeyframeAt = Date.now();
  /** Sequence of the last log entry that changed the screen (Output, Resize): what a snapshot must match. */
  private screenSeq: number;
  /** A cadence snapshot is being taken; `keyframeDue`: one must be taken at the next chance. */
  private keyframePending = false;
  private keyframeDue = false;
  /** Cadence snapshots in a row that output overtook; past MAX_KEYFRAME_RETRIES the keyframe reserves its place. */
  private keyframeRetries = 0;
  /** The last on-demand snapshot and the log sequence it stands for: joins at one anchor share it. */
  private snapshotCache: { anchorSeq: number; snapshot: Promise<ScreenSnapshot> } | undefined;
  /** MembershipChanged requested in this turn of the event loop: one frame answers them all. */
  private membershipBatch: { seq: Promise<number>; log: () => void } | undefined;
  private readonly cadenceTimer: NodeJS.Timeout;
  private killedBy: ClosedReason | undefined;
  private readonly closedWaiters: Array<() => void> = [];
  onClosed: (exitCode: number | null, reason: ClosedReason) => void = () => {};

  constructor(
    readonly record: SessionRecord,
    private readonly proc: PtyProcess,
    lastSeq: number,
    private readonly opts: RuntimeOptions,
  ) {
    this.size = { ...record.spec.size };
    this.screenSeq = lastSeq;
    this.membership = new Membership(opts.caps);
    this.screen = new TerminalState({ cols: this.size.cols, rows: this.size.rows });
    this.archiver = opts.archive ? createArchiver(record.sessionId, opts.archive, opts.log, opts) : undefined;
    this.sequencer = new Sequencer(
      record.sessionId,
      opts.log,
      lastSeq,
      (err) => {
        // The log cannot take this session's frames any more: stop it rather than let it run on
        // with output nobody can see or replay.
        opts.logger.warn(
          { session_id: record.sessionId, err: err.message },
          'frame log append failed for good: closing the session',
        );
        void this.kill('error');
      },
      (entry) => {
        this.archiver?.push(entry);
        this.maybeTrim();
      },
      (err) =>
        opts.logger.warn({ session_id: record.sessionId, err: err.message }, 'frame log append failed: retrying'),
    );
    this.coalescer = new OutputCoalescer(opts.outputCoalesceMs, opts.outputFrameBytes, (data) => this.emitOutput(data));
    proc.onData((data) => {
      if (this.state === 'closed') return;
      this.coalescer.push(data);
    });
    proc.onExit(({ exitCode }) => this.finish(exitCode, this.killedBy ?? 'normal'));
    this.cadenceTimer = setInterval(
      () => this.cadenceTick(),
      Math.max(50, Math.min(1000, opts.keyframeIntervalMs / 4)),
    );
    this.cadenceTimer.unref();
  }

  get sessionId(): string {
    return this.record.sessionId;
  }

  get running(): boolean {
    return this.state === 'running';
  }

  get lifecycle(): 'running' | 'closing' | 'closed' {
    return this.state;
  }

  private lastTrimAt = 0;

  /** Retention is applied as the log grows (at most 4×/s), so replay windows are exact, not janitor-late. */
  private maybeTrim(): void {
    const now = Date.now();
    if (now - this.lastTrimAt < 250) return;
    this.lastTrimAt = now;
    void this.opts.log.trim(this.sessionId, this.retention(), now).catch(() => undefined);
  }

  /** The configured windows, never past what the transcript archive already holds. */
  retention(): RetentionPolicy {
    return this.archiver ? this.archiver.guard(this.opts.retention) : this.opts.retention;
  }

  /** Live member counts, for the sessions API. */
  memberCounts(): { controllers: number; observers: number } {
    const snap = this.membership.snapshot();
    return { controllers: snap.controllers.length, observers: snap.observers.length };
  }

  // ---- output and keyframes ---------------------------------------------------------------

  private emitOutput(data: Uint8Array): void {
    // Feed the mirror first, then sequence: a keyframe anchored at N always contains output N.
    this.screen.write(data);
    this.screenSeq = this.sequencer.output('stdout', data);
    this.outputsSinceKeyframe++;
    if (this.keyframeDue || this.outputsSinceKeyframe >= this.opts.keyframeIntervalFrames) this.logKeyframe();
  }

  private cadenceTick(): void {
    if (this.state !== 'running') return;
    if (this.keyframeDue) return this.logKeyframe();
    if (this.outputsSinceKeyframe === 0) return;
    if (Date.now() - this.lastKeyframeAt >= this.opts.keyframeIntervalMs) this.logKeyframe();
  }

  /**
   * A cadence Keyframe: a log entry whose anchor is the entry right before it, so its snapshot
   * must reflect exactly the entries before it. The snapshot is taken without holding the log:
   * once xterm has parsed everything written so far, if no Output or Resize was sequenced
   * meanwhile the keyframe is logged right then as the next entry. If output overtook it, it is
   * tried again with the next output (or the next quiet tick). Output keeps flowing meanwhile;
   * only after MAX_KEYFRAME_RETRIES misses does it reserve its sequence and make later entries
   * wait, so a keyframe is late by a few frames at most, never skipped.
   */
  private logKeyframe(): void {
    if (this.keyframePending) {
      this.keyframeDue = true;
      return;
    }
    this.outputsSinceKeyframe = 0;
    this.lastKeyframeAt = Date.now();
    this.keyframeDue = false;
    if (this.keyframeRetries >= MAX_KEYFRAME_RETRIES) return this.reserveKeyframe();
    const startedAt = performance.now();
    const screenSeq = this.screenSeq;
    this.keyframePending = true;
    this.screen.snapshot().then(
      (s) => {
        this.keyframePending = false;
        if (this.state === 'closed') return;
        if (this.screenSeq !== screenSeq) {
          this.keyframeRetries++;
          this.keyframeDue = true;
          return;
        }
        this.keyframeRetries = 0;
        this.recordKeyframe('cadence', s.snapshot, startedAt);
        // No await since the snapshot: the log's last entry is still the one the screen shows.
        this.sequencer.event('pty.session_frame', keyframePayload(s, this.sequencer.lastSeq));
      },
      () => {
        this.keyframePending = false;
      },
    );
  }

  /** The fallback: reserve the next sequence now, later entries wait for the snapshot. */
  private reserveKeyframe(): void {
    this.keyframeRetries = 0;
    const startedAt = performance.now();
    const snapshot = this.screen.snapshot();
    this.sequencer.reserve(async (seq) => {
      const s = await snapshot;
      this.recordKeyframe('cadence', s.snapshot, startedAt);
      return {
        type: 'event',
        seq,
        id: newId(),
        ts: Date.now(),
        op: 'pty.session_frame',
        payload: keyframePayload(s, seq - 1),
      };
    });
  }

  /**
   * A keyframe for one connection (join flush, request, role change, lag): not logged. The screen
   * only changes with a logged entry, so requests at the same anchor (the joins of an attach
   * storm answered by one MembershipChanged) share one snapshot.
   */
  async keyframe(): Promise<Keyframe> {
    const anchorSeq = this.sequencer.lastSeq;
    let cached = this.snapshotCache;
    if (!cached || cached.anchorSeq !== anchorSeq) {
      const startedAt = performance.now();
      const snapshot = this.screen.snapshot();
      cached = { anchorSeq, snapshot };
      this.snapshotCache = cached;
      snapshot.then(
        (s) => this.recordKeyframe('on_demand', s.snapshot, startedAt),
        () => {
          if (this.snapshotCache === cached) this.snapshotCache = undefined;
        },
      );
    }
    const s = await cached.snapshot;
    return { snapshot: s.snapshot, cols: s.cols, rows: s.rows, anchorSeq };
  }

  private recordKeyframe(trigger: 'cadence' | 'on_demand', snapshot: string, startedAt: number): void {
    this.opts.metrics?.keyframe(trigger, Buffer.byteLength(snapshot, 'utf8'), (performance.now() - startedAt) / 1000);
  }

  // ---- membership ---------------------------------------------------------------------------

  async join(req: JoinRequest): Promise<JoinResult> {
    this.assertRunning();
    if (this.membership.has(req.clientId)) {
      throw new BindingError('INVALID_REQUEST', 'this connection has already joined the session');
    }
    const grant = this.membership.join(
      {
        clientId: req.clientId,
        edgeId: req.edgeId,
        principalId: req.principalId,
        joinedAt: Date.now(),
        ...(req.label !== undefined ? { label: req.label } : {}),
      },
      req.requestedRole,
      req.canControl,
    );
    // Geometry only matters on the first controller's join (extension: join payload).
    if (grant.role === 'controller' && req.size && this.isOnlyController(req.clientId) && !this.sameSize(req.size)) {
      this.applyResize(req.size);
    }
    const membershipSeq = await this.logMembership();
    const keyframe = await this.keyframe();
    await this.sequencer.flushed();
    return { grant, membershipSeq, keyframe };
  }

  async leave(clientId: string): Promise<void> {
    if (!this.membership.remove(clientId)) return;
    if (this.state === 'closed') return;
    await this.logMembership();
    await this.sequencer.flushed();
  }

  async setRole(clientId: string, role: PtyRole, canControl: boolean): Promise<RoleChangeResult> {
    this.assertRunning();
    const { grant, changed } = this.membership.setRole(clientId, role, canControl);
    const membershipSeq = changed ? await this.logMembership() : undefined;
    const keyframe = await this.keyframe();
    await this.sequencer.flushed();
    return membershipSeq !== undefined ? { grant, membershipSeq, keyframe } : { grant, keyframe };
  }

  releaseEdge(edgeId: string): void {
    if (this.membership.removeEdge(edgeId) > 0 && this.state !== 'closed') void this.logMembership();
  }

  roleOf(clientId: string): PtyRole | undefined {
    return this.membership.roleOf(clientId);
  }

  /**
   * The MembershipChanged for a join, leave or role change: resolves to its sequence. Changes in
   * the same turn of the event loop share one frame, logged once they are all applied (setImmediate),
   * so it holds every one of them. An attach storm then costs one full member list per batch, not
   * one per join sent to every member. Each joiner still gets it after its RoleAssigned and before
   * its Keyframe: the keyframe is taken after this resolves.
   */
  private logMembership(): Promise<number> {
    if (this.membershipBatch) return this.membershipBatch.seq;
    let resolve!: (seq: number) => void;
    const seq = new Promise<number>((r) => (resolve = r));
    const batch = {
      seq,
      log: () => {
        if (this.membershipBatch !== batch) return;
        this.membershipBatch = undefined;
        const snap = this.membership.snapshot();
        void this.opts.membershipStore.save(this.sessionId, this.membership.all()).catch(() => undefined);
        resolve(this.sequencer.event('pty.session_frame', { kind: 'MembershipChanged', ...snap }));
      },
    };
    this.membershipBatch = batch;
    setImmediate(batch.log);
    return seq;
  }

  /** Logs a pending MembershipChanged now: before `Closed`, nothing may follow it. */
  private flushMembership(): void {
    this.membershipBatch?.log();
  }

  private isOnlyController(clientId: string): boolean {
    return this.membership.all().every((m) => m.role !== 'controller' || m.clientId === clientId);
  }

  // ---- input and resize ---------------------------------------------------------------------

  input(clientId: string, data: Uint8Array): void {
    this.assertRunning();
    this.assertController(clientId, 'send input');
    try {
      this.proc.write(data);
    } catch (err) {
      throw new PtyFailure('PTY_WRITE_FAILED', `write to the PTY failed: ${(err as Error).message}`);
    }
  }

  async resize(clientId: string, size: TerminalSize): Promise<void> {
    this.assertRunning();
    this.assertController(clientId, 'resize');
    this.applyResize(size);
    await this.sequencer.flushed();
  }

  private applyResize(size: TerminalSize): void {
    try {
      this.proc.resize(size);
    } catch (err) {
      throw new PtyFailure('PTY_RESIZE_FAILED', `resize failed: ${(err as Error).message}`);
    }
    // Output already read belongs to the old geometry: sequence it before the Resize frame.
    this.coalescer.flush();
    this.size = { ...size };
    this.screen.resize(size.cols, size.rows);
    this.screenSeq = this.sequencer.event('pty.session_frame', { kind: 'Resize', cols: size.cols, rows: size.rows });
  }

  private sameSize(size: TerminalSize): boolean {
    return size.cols === this.size.cols && size.rows === this.size.rows;
  }

  private assertController(clientId: string, what: string): void {
    const role = this.membership.roleOf(clientId);
    if (role === undefined) throw new BindingError('INVALID_REQUEST', `join the session before you ${what}`);
    if (role !== 'controller') throw new BindingError('PERMISSION_DENIED', `observers cannot ${what}`);
  }

  private assertRunning(): void {
    if (this.state !== 'running') throw new BindingError('INVALID_REQUEST', 'the session has closed');
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  /** Terminates the process; `Closed` follows with the given reason once its output is drained. */
  kill(reason: ClosedReason = 'killed'): Promise<void> {
    if (this.state !== 'running') return this.whenClosed();
    this.killedBy = reason;
    try {
      this.proc.kill('SIGHUP');
    } catch {
      /* already gone */
    }
    const hard = setTimeout(() => {
      try {
        this.proc.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }, 3000);
    hard.unref();
    return this.whenClosed();
  }

  /** Logs a Keyframe now (after re-attaching to a managed session), so every client's screen resyncs. */
  resync(): void {
    if (this.state !== 'running') return;
    this.coalescer.flush(); // the repaint may still sit in the coalescer
    this.logKeyframe();
  }

  /**
   * Lets go of a managed session without ending it (agent restart): pending output is logged but
   * no `Closed`, since the program keeps running in its multiplexer for the next agent to re-attach.
   * Returns false for a native session, which cannot outlive its agent.
   */
  async detach(): Promise<boolean> {
    if (this.state !== 'running' || !isManagedPtyProcess(this.proc)) return false;
    await this.proc.detach();
    this.coalescer.flush();
    this.flushMembership();
    this.state = 'closed';
    clearInterval(this.cadenceTimer);
    await this.sequencer.flushed();
    await this.archiver?.close();
    this.screen.dispose();
    return true;
  }

  whenClosed(): Promise<void> {
    if (this.state === 'closed') return Promise.resolve();
    return new Promise((resolve) => this.closedWaiters.push(resolve));
  }

  private finish(exitCode: number | null, reason: ClosedReason): void {
    if (this.state === 'closed') return;
    this.state = 'closing';
    this.coalescer.flush();
    this.flushMembership();
    this.sequencer.event('pty.session_frame', { kind: 'Closed', exit_code: exitCode, reason });
    this.state = 'closed';
    clearInterval(this.cadenceTimer);
    void this.sequencer.flushed().then(() => {
      // Not awaited: a slow archive must not hold up Closed; the log keeps what it has not taken.
      void this.archiver?.close();
      this.screen.dispose();
      this.onClosed(exitCode, reason);
      for (const w of this.closedWaiters.splice(0)) w();
    });
  }
}

/** Cadence snapshots overtaken by output in a row before the keyframe holds the log instead. */
const MAX_KEYFRAME_RETRIES = 3;

function keyframePayload(s: ScreenSnapshot, anchorSeq: number): Record<string, unknown> {
  return {
    kind: 'Keyframe',
    snapshot: Buffer.from(s.snapshot, 'utf8').toString('base64'),
    snapshot_format: SNAPSHOT_FORMAT,
    snapshot_cols: s.cols,
    snapshot_rows: s.rows,
    anchor_sequence: anchorSeq,
  };
}

/** A PTY-level failure: reported to the caller as a `pty.session_frame` Error, connection stays up. */
export class PtyFailure extends Error {
  constructor(
    readonly code: 'PTY_WRITE_FAILED' | 'PTY_RESIZE_FAILED' | 'KEYFRAME_UNAVAILABLE',
    message: string,
  ) {
    super(message);
    this.name = 'PtyFailure';
  }
}
