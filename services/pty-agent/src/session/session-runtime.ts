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
import { ControllerSizes } from './controller-sizes';
import { Membership, type Caps } from './membership';
import { endCutLog } from './log-cut';
import { ReaderPace } from './reader-pace';
import { DEFAULT_GIVE_UP_MS, type Sequencer } from './sequencer';
import { SessionOutput, type OutputSettings } from './session-output';

export interface RuntimeOptions extends OutputSettings {
  caps: Caps;
  membershipStore: MembershipStore;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Timestamps, the keyframe cadence, the kill's SIGKILL fallback; default the system's. */
  clock?: Clock;
}

type Lifecycle = 'running' | 'closing' | 'closed';

/** One way only: running → closing (the process ended, or the agent lets go of it) → closed. */
const NEXT: Readonly<Record<Lifecycle, Lifecycle | undefined>> = {
  running: 'closing',
  closing: 'closed',
  closed: undefined,
};

/**
 * One live session on its owner agent: the PTY, its output path (session-output.ts: mirror,
 * keyframes, the sequencer that makes every shared frame a log entry), and the membership.
 * Lifecycle is one-way: running → closing (process gone, draining) → closed (`Closed` logged).
 */
export class SessionRuntime {
  private readonly membership: Membership;
  private readonly output: SessionOutput;
  /** Holds the PTY's output while every edge's readers are behind (reader-pace.ts). */
  private readonly readerPace: ReaderPace;
  private state: Lifecycle = 'running';
  private size: TerminalSize;
  /** Which controller's size the session follows (controller-sizes.ts). */
  private readonly sizes = new ControllerSizes();
  /** MembershipChanged requested in this turn of the event loop: one frame answers them all. */
  private membershipBatch: { seq: Promise<number>; log: () => void } | undefined;
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
    this.size = { ...record.spec.size };
    this.membership = new Membership(opts.caps);
    this.output = new SessionOutput({
      ...opts,
      sessionId: record.sessionId,
      proc,
      lastSeq,
      size: this.size,
      lifecycle: () => this.state,
      clock: this.clock,
      onLogFailure: () => void this.kill('error'),
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
    return { ...this.size };
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
    this.sizes.joined(req.clientId, req.size);
    // Geometry only matters on the first controller's join (extension: join payload); a later
    // controller's is remembered, and applies once it types.
    if (grant.role === 'controller' && req.size && this.isOnlyController(req.clientId)) {
      if (!this.sameSize(req.size)) this.applyResize(req.size);
      this.sizes.applied(req.clientId);
    }
    const membershipSeq = await this.logMembership();
    const keyframe = await this.keyframe();
    await this.sequencer.flushed();
    return { grant, membershipSeq, keyframe };
  }

  async leave(clientId: string): Promise<void> {
    const wasController = this.membership.roleOf(clientId) === 'controller';
    if (!this.membership.remove(clientId)) return;
    this.sizes.left(clientId);
    this.membersChanged();
    if (wasController) this.controllerGone(clientId);
    if (this.state === 'closed') return;
    await this.logMembership();
    await this.sequencer.flushed();
  }

  async setRole(clientId: string, role: PtyRole, canControl: boolean): Promise<RoleChangeResult> {
    this.assertRunning();
    const { grant, changed } = this.membership.setRole(clientId, role, canControl);
    if (changed && grant.role === 'observer') this.controllerGone(clientId);
    const membershipSeq = changed ? await this.logMembership() : undefined;
    const keyframe = await this.keyframe();
    await this.sequencer.flushed();
    return membershipSeq !== undefined ? { grant, membershipSeq, keyframe } : { grant, keyframe };
  }

  releaseEdge(edgeId: string): void {
    const gone = this.membership.all().filter((m) => m.edgeId === edgeId);
    if (this.membership.removeEdge(edgeId) === 0) return;
    for (const m of gone) this.sizes.left(m.clientId);
    this.membersChanged();
    for (const m of gone) if (m.role === 'controller') this.controllerGone(m.clientId);
    if (this.state !== 'closed') void this.logMembership();
  }

  /** Output waits for a different set of readers, and the PTY's reader learns how many there are. */
  private membersChanged(): void {
    this.readerPace.membersChanged();
    this.proc.readers?.(this.membership.all().length);
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

  /**
   * A controller left or gave up control: when its size was the session's, the session takes the
   * size of the remaining controller active most recently. Failing to resize does not fail the leave.
   */
  private controllerGone(clientId: string): void {
    if (this.state !== 'running') return;
    const remaining = this.membership
      .all()
      .filter((m) => m.role === 'controller')
      .map((m) => m.clientId);
    const next = this.sizes.controllerGone(clientId, remaining, this.size);
    if (!next) return;
    try {
      this.applyResize(next.size);
      this.onSizeFollowed(next.size);
    } catch (err) {
      this.opts.logger.warn(
        { session_id: this.sessionId, err: (err as Error).message },
        "could not give the session the remaining controller's size",
      );
    }
  }

  private isOnlyController(clientId: string): boolean {
    return this.membership.all().every((m) => m.role !== 'controller' || m.clientId === clientId);
  }

  // ---- input and resize ---------------------------------------------------------------------

  input(clientId: string, data: Uint8Array): void {
    this.assertRunning();
    this.assertController(clientId, 'send input');
    // The one typing sees a screen that fits it: its size first, when the session has another.
    const fit = this.sizes.typed(clientId, this.size);
    if (fit) {
      this.applyResize(fit);
      this.sizes.applied(clientId);
      this.onSizeFollowed(fit);
    }
    try {
      this.proc.write(data);
    } catch (err) {
      throw new PtyFailure('PTY_WRITE_FAILED', `write to the PTY failed: ${(err as Error).message}`);
    }
  }

  async resize(clientId: string, size: TerminalSize): Promise<void> {
    this.assertRunning();
    this.assertController(clientId, 'resize');
    this.sizes.resized(clientId, size);
    this.applyResize(size);
    this.sizes.applied(clientId);
    await this.sequencer.flushed();
  }

  private applyResize(size: TerminalSize): void {
    try {
      this.proc.resize(size);
    } catch (err) {
      throw new PtyFailure('PTY_RESIZE_FAILED', `resize failed: ${(err as Error).message}`);
    }
    this.size = { ...size };
    this.output.resized(size);
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

  /** Readers are told at once, and the log gets its `Closed` once it takes appends again (log-cut.ts). */
  private endCutLog(): void {
    const giveUpMs = this.opts.logOutage?.giveUpMs ?? DEFAULT_GIVE_UP_MS;
    const lastSeq = this.sequencer.lastSeq;
    void endCutLog({
      sessionId: this.sessionId,
      log: this.opts.log,
      cut: {
        lastSeq,
        message: `the session's frame log could not be written for ${Math.round(giveUpMs / 1000)} s: the session was ended, and output after the log's last frame was lost`,
      },
      clock: this.clock,
      logger: this.opts.logger,
    });
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
    this.flushMembership();
    if (end) this.sequencer.event('pty.session_frame', { kind: 'Closed', exit_code: end.exitCode, reason: end.reason });
    this.advance('closed');
    // A slow archive must not hold up Closed: the log keeps what the archive has not taken.
    const { archived } = await this.output.close();
    // A session whose log was cut never ended cleanly, whatever its exit: `error`, and no exit code.
    if (end && this.output.logCut) this.endCutLog();
    if (end) this.onClosed(this.output.logCut ? null : end.exitCode, this.output.logCut ? 'error' : end.reason);
    for (const w of this.closedWaiters.splice(0)) w();
    await archived;
  }
}
