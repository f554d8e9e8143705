import { BindingError, type ClosedReason, type PtyRole, type TerminalSize } from '@pty-ws/protocol';
import type {
  JoinRequest,
  JoinResult,
  Keyframe,
  ScreenFormat,
  SessionScreen,
  MembershipStore,
  PtyProcess,
  RetentionPolicy,
  RoleChangeResult,
  SessionRecord,
} from '@pty-ws/ports';
import { PtyFailure, isManagedPtyProcess, sessionEndedError, systemClock, type Clock } from '@pty-ws/ports';
import type { TranscriptArchiver } from '../archive/transcript-archiver';
import { NEXT, type Lifecycle } from './lifecycle';
import { Membership, type Caps } from './membership';
import { MembershipBatch } from './membership-batch';
import { ReaderPace } from './reader-pace';
import type { Sequencer } from './sequencer';
import { SessionGeometry } from './session-geometry';
import { SessionOutput, type OutputSettings } from './session-output';

export interface RuntimeOptions extends OutputSettings {
  caps: Caps;
  membershipStore: MembershipStore;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Timestamps, the keyframe cadence, the kill's SIGKILL fallback; default the system's. */
  clock?: Clock;
}

/**
 * One live session on its owner agent: the PTY, its output path (session-output.ts: mirror,
 * keyframes, the sequencer that makes every shared frame a log entry), its size
 * (session-geometry.ts), and the membership (its frames: membership-batch.ts).
 * Lifecycle is one-way: running → closing (process gone, draining) → closed (`Closed` logged).
 */
export class SessionRuntime {
  private readonly membership: Membership;
  private readonly output: SessionOutput;
  /** Holds the PTY's output while every edge's readers are behind (reader-pace.ts). */
  private readonly readerPace: ReaderPace;
  private state: Lifecycle = 'running';
  /** The PTY's size, following the controllers (session-geometry.ts). */
  private readonly geometry: SessionGeometry;
  /** MembershipChanged frames, one per turn of the event loop (membership-batch.ts). */
  private readonly membershipFrames: MembershipBatch;
  private killedBy: ClosedReason | undefined;
  private readonly closedWaiters: Array<() => void> = [];
  private readonly clock: Clock;
  onClosed: (exitCode: number | null, reason: ClosedReason) => void = () => {};
  /** The size rule (not a Resize request) gave the session a new size: the registry shows it. */
  onSizeFollowed: (size: TerminalSize) => void = () => {};

  constructor(
    readonly record: SessionRecord,
    private readonly proc: PtyProcess,
    lastSeq: number,
    private readonly opts: RuntimeOptions,
  ) {
    this.clock = opts.clock ?? systemClock;
    this.membership = new Membership(opts.caps);
    this.output = new SessionOutput({
      ...opts,
      sessionId: record.sessionId,
      proc,
      lastSeq,
      size: { ...record.spec.size },
      lifecycle: () => this.state,
      clock: this.clock,
      onLogFailure: () => void this.kill('error'),
    });
    this.geometry = new SessionGeometry({
      sessionId: record.sessionId,
      initial: record.spec.size,
      proc,
      output: this.output,
      logger: opts.logger,
      followed: (size) => this.onSizeFollowed(size),
    });
    this.membershipFrames = new MembershipBatch({
      sessionId: record.sessionId,
      membership: this.membership,
      store: opts.membershipStore,
      sequencer: this.output.sequencer,
    });
    this.readerPace = new ReaderPace({
      clock: this.clock,
      memberEdges: () => this.membership.all().map((m) => m.edgeId),
      onChange: (hold) => this.output.readersBehind(hold),
    });
    proc.onData((data) => {
      if (this.state === 'closed') return;
      this.output.push(data);
    });
    proc.onExit(({ exitCode }) => this.finish(exitCode, this.killedBy ?? 'normal'));
  }

  /** Every shared frame of this session becomes a log entry through it (tasks log theirs too). */
  get sequencer(): Sequencer {
    return this.output.sequencer;
  }

  /** Copies the log into the transcript archive in chunks; undefined without an archive. */
  get archiver(): TranscriptArchiver | undefined {
    return this.output.archiver;
  }

  get sessionId(): string {
    return this.record.sessionId;
  }

  /** The PTY's size now. */
  get currentSize(): TerminalSize {
    return { ...this.geometry.current };
  }

  get running(): boolean {
    return this.state === 'running';
  }

  get lifecycle(): Lifecycle {
    return this.state;
  }

  /** The one way the state changes; false (nothing changed) when `to` does not come next. */
  private advance(to: Lifecycle): boolean {
    if (NEXT[this.state] !== to) return false;
    this.state = to;
    return true;
  }

  /** The configured windows, never past what the transcript archive already holds. */
  retention(): RetentionPolicy {
    return this.output.retention();
  }

  /** Live member counts, for the sessions API. */
  memberCounts(): { controllers: number; observers: number } {
    const snap = this.membership.snapshot();
    return { controllers: snap.controllers.length, observers: snap.observers.length };
  }

  /** A keyframe for one connection (join flush, request, role change, lag): not logged. */
  keyframe(): Promise<Keyframe> {
    return this.output.keyframe();
  }

  /** The screen as text (GET …/screen), from the same mirror as keyframes; a session that ends meanwhile has none. */
  async screen(format: ScreenFormat): Promise<SessionScreen> {
    if (this.state !== 'running') throw sessionEndedError(this.sessionId);
    try {
      return await this.output.readScreen(format);
    } catch (err) {
      // The mirror is disposed as the session closes: that is the end, not a failure.
      throw this.state === 'running' ? err : sessionEndedError(this.sessionId);
    }
  }

  /**
   * An edge says every reader of this session there is behind, or that one keeps up again; true
   * when the output is held for the readers now.
   */
  pace(edgeId: string, behind: boolean): boolean {
    if (this.state === 'running') this.readerPace.report(edgeId, behind);
    return this.readerPace.held;
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
        joinedAt: this.clock.now(),
        ...(req.label !== undefined ? { label: req.label } : {}),
      },
      req.requestedRole,
      req.canControl,
      req.admin === true,
    );
    this.membersChanged(); // a reader on another edge: output no longer waits for these
    const onlyController = grant.role === 'controller' && this.membership.isOnlyController(req.clientId);
    this.geometry.joined(req.clientId, req.size, onlyController);
    const membershipSeq = await this.membershipFrames.log();
    const keyframe = await this.keyframe();
    await this.sequencer.flushed();
    return { grant, membershipSeq, keyframe };
  }

  async leave(clientId: string): Promise<void> {
    const wasController = this.membership.roleOf(clientId) === 'controller';
    if (!this.membership.remove(clientId)) return;
    this.geometry.left(clientId);
    this.membersChanged();
    if (wasController) this.controllerGone(clientId);
    if (this.state === 'closed') return;
    await this.membershipFrames.log();
    await this.sequencer.flushed();
  }

  async setRole(clientId: string, role: PtyRole, canControl: boolean): Promise<RoleChangeResult> {
    this.assertRunning();
    const { grant, changed } = this.membership.setRole(clientId, role, canControl);
    if (changed && grant.role === 'observer') this.controllerGone(clientId);
    const membershipSeq = changed ? await this.membershipFrames.log() : undefined;
    const keyframe = await this.keyframe();
    await this.sequencer.flushed();
    return membershipSeq !== undefined ? { grant, membershipSeq, keyframe } : { grant, keyframe };
  }

  releaseEdge(edgeId: string): void {
    const gone = this.membership.all().filter((m) => m.edgeId === edgeId);
    if (this.membership.removeEdge(edgeId) === 0) return;
    for (const m of gone) this.geometry.left(m.clientId);
    this.membersChanged();
    for (const m of gone) if (m.role === 'controller') this.controllerGone(m.clientId);
    if (this.state !== 'closed') void this.membershipFrames.log();
  }

  /** Output waits for a different set of readers, and the PTY's reader learns how many there are. */
  private membersChanged(): void {
    this.readerPace.membersChanged();
    this.proc.readers?.(this.membership.all().length);
  }

  roleOf(clientId: string): PtyRole | undefined {
    return this.membership.roleOf(clientId);
  }

  /** A controller left or gave up control: the session may take another controller's size. */
  private controllerGone(clientId: string): void {
    if (this.state !== 'running') return;
    this.geometry.controllerGone(clientId, this.membership.controllerIds());
  }

  // ---- input and resize ---------------------------------------------------------------------

  input(clientId: string, data: Uint8Array): void {
    this.assertRunning();
    this.assertController(clientId, 'send input');
    // The one typing sees a screen that fits it: its size first, when the session has another.
    this.geometry.typed(clientId);
    try {
      this.proc.write(data);
    } catch (err) {
      throw new PtyFailure('PTY_WRITE_FAILED', `write to the PTY failed: ${(err as Error).message}`);
    }
  }

  async resize(clientId: string, size: TerminalSize): Promise<void> {
    this.assertRunning();
    this.assertController(clientId, 'resize');
    this.geometry.resize(clientId, size);
    await this.sequencer.flushed();
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
    // Its last output is read whatever the readers or the log do: the exit waits for the tty to drain.
    this.readerPace.dispose();
    this.output.drain();
    try {
      this.proc.kill('SIGHUP');
    } catch {
      /* already gone */
    }
    this.clock
      .setTimeout(() => {
        try {
          this.proc.kill('SIGKILL');
        } catch {
          /* already gone */
        }
      }, 3000)
      .unref();
    return this.whenClosed();
  }

  /** Logs a Keyframe now (after re-attaching to a managed session), so every client's screen resyncs. */
  resync(): void {
    if (this.state !== 'running') return;
    this.output.resync();
  }

  /**
   * Lets go of a managed session without ending it (agent restart): pending output is logged but
   * no `Closed`, since the program keeps running in its multiplexer for the next agent to re-attach.
   * Returns false for a native session, which cannot outlive its agent.
   */
  async detach(): Promise<boolean> {
    if (this.state !== 'running' || !isManagedPtyProcess(this.proc)) return false;
    // Closing from here on: no join, input or resize while the client lets go, and an exit the
    // detach causes cannot log `Closed`.
    this.advance('closing');
    await this.proc.detach();
    await this.teardown(undefined);
    return true;
  }

  whenClosed(): Promise<void> {
    if (this.state === 'closed') return Promise.resolve();
    return new Promise((resolve) => this.closedWaiters.push(resolve));
  }

  /** The process ended (or was killed): the session closes with `Closed`. */
  private finish(exitCode: number | null, reason: ClosedReason): void {
    if (!this.advance('closing')) return;
    void this.teardown({ exitCode, reason });
  }

  /**
   * The one teardown, from `closing`, for a session that ended (`end`: `Closed` is logged, and
   * onClosed told) and for one the agent only lets go of (detach: no `Closed`, the program keeps
   * running for the next agent). Pending output and membership are logged first, so nothing
   * follows `Closed`. Waiters are released once the log has everything; the returned promise
   * also waits for the archive's last chunk.
   */
  private async teardown(end: { exitCode: number | null; reason: ClosedReason } | undefined): Promise<void> {
    this.readerPace.dispose();
    this.output.flush();
    this.membershipFrames.flush();
    if (end) this.sequencer.event('pty.session_frame', { kind: 'Closed', exit_code: end.exitCode, reason: end.reason });
    this.advance('closed');
    // A slow archive must not hold up Closed: the log keeps what the archive has not taken.
    const { archived } = await this.output.close();
    // A session whose log was cut never ended cleanly, whatever its exit: `error`, and no exit code.
    if (end && this.output.logCut) this.output.endCutLog();
    if (end) this.onClosed(this.output.logCut ? null : end.exitCode, this.output.logCut ? 'error' : end.reason);
    for (const w of this.closedWaiters.splice(0)) w();
    await archived;
  }
}
