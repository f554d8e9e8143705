import { BindingError, CloseCode, resolveHostSelection, type ClientFrameOf, type PtyRole } from '@pty-ws/protocol';
import type { JoinRequest, JoinResult, LogBounds, LogEntry } from '@pty-ws/ports';
import { logEndsInClosed, REPLAY_STALL_MS, replayInRange } from '@pty-ws/ports';
import { canControl, isAdmin } from '../auth';
import { afterIo } from '../next-turn';
import { currentSessionHost, hubOf, sendLogRange, type BindingContext } from './binding-context';
import { advance, type Conn } from './connection';
import { sendError, sendKeyframe, sendPtyError, sendRoleAssigned } from './frame-writer';
import { CLOSED_IN_ERROR, goodbyeAtClose, sendClosed, type Fault } from './log-cut-close';
import { checkSize } from './pty-verbs';

/** A `replay_from` judged against the log's retained window, as of the request. */
export interface ReplayVerdict {
  bounds: LogBounds;
  /** Set when the window no longer holds `replay_from`: the one REPLAY_OUT_OF_RANGE error. */
  outOfRange?: BindingError;
}

/**
 * The one replay-range check (binding §8.3) of join, join after close and SubscribeToTask;
 * undefined when the request asks for no replay.
 */
export async function judgeReplay(
  ctx: BindingContext,
  conn: Conn,
  replayFrom: number | null | undefined,
): Promise<ReplayVerdict | undefined> {
  if (replayFrom === undefined || replayFrom === null) return undefined;
  ctx.deps.metrics?.replayRequested();
  const bounds = await ctx.deps.log.bounds(conn.sessionId);
  if (replayInRange(replayFrom, bounds)) return { bounds };
  ctx.deps.metrics?.replayOutOfRange();
  const outOfRange = new BindingError(
    'REPLAY_OUT_OF_RANGE',
    `replay_from ${replayFrom} is outside the retained window ${bounds.firstSeq - 1}..${bounds.lastSeq}`,
    { first_retained_sequence: bounds.firstSeq, last_sequence: bounds.lastSeq },
  );
  return { bounds, outOfRange };
}

/**
 * Joining, leaving and changing role (extension: roles, membership, join flush). Each ends with
 * the connection caught up and live on the hub, or with it closed.
 */
export class JoinFlow {
  constructor(private readonly ctx: BindingContext) {}

  async join(conn: Conn, f: ClientFrameOf<'pty.join_session'>): Promise<void> {
    if (conn.phase !== 'ready')
      throw new BindingError('INVALID_REQUEST', 'this connection has already joined the session');
    if (conn.sessionClosed) return this.joinClosed(conn, f);
    // The session may close meanwhile: its goodbye then waits for this join's outcome (a member
    // catches up through Closed, a refused join replays the log as a join after close).
    conn.joining = true;
    try {
      await this.joinOpen(conn, f);
    } finally {
      conn.joining = false;
      this.goodbyeIfClosedMeanwhile(conn);
    }
  }

  /**
   * The join ended without making the connection a member (an error) after the session closed:
   * the goodbye it was spared waiting for the join, after the join's Error.
   */
  private goodbyeIfClosedMeanwhile(conn: Conn): void {
    afterIo(() => {
      if (!conn.open || conn.attached || this.ctx.deps.hubs.get(conn.sessionId)?.closedSeq === undefined) return;
      this.ctx.goodbye(conn, 'session_closed', CloseCode.NORMAL);
    });
  }

  private async joinOpen(conn: Conn, f: ClientFrameOf<'pty.join_session'>): Promise<void> {
    const { deps } = this.ctx;
    const p = f.payload;
    // Backend/class validated as a pair against what hello advertised (binding §5.1.1).
    resolveHostSelection(currentSessionHost(deps.sessionHost), p.session_backend ?? p.backend, p.session_class);
    const size =
      p.terminal_size ?? (p.cols !== undefined && p.rows !== undefined ? { cols: p.cols, rows: p.rows } : undefined);
    if (size) checkSize(size.cols, size.rows);
    const requestedRole: PtyRole = p.role ?? (canControl(conn.principal) ? 'controller' : 'observer');
    const hub = hubOf(this.ctx, conn);
    // The replay window is judged, and read, as of the join request: the join's own frames may
    // trigger a trim that would otherwise push a valid replay_from out of range.
    const verdict = await judgeReplay(this.ctx, conn, f.replay_from);
    // Read while the owner joins (the read is sent first): the two round trips overlap.
    const reading =
      verdict && !verdict.outOfRange
        ? deps.log.read(conn.sessionId, f.replay_from ?? 0, { toSeq: verdict.bounds.lastSeq })
        : undefined;
    reading?.catch(() => undefined); // awaited below; a join that fails first must not leave it unhandled
    const result = await this.controlJoin(conn, {
      clientId: conn.clientId,
      edgeId: deps.edgeId,
      principalId: conn.principal.id,
      canControl: canControl(conn.principal),
      admin: isAdmin(conn.principal),
      requestedRole,
      ...(p.client_label !== undefined ? { label: p.client_label } : {}),
      ...(size ? { size } : {}),
    });
    if (result === 'closed') return this.joinClosed(conn, f);
    let replay: LogEntry[] | undefined;
    try {
      replay = await reading;
    } catch (err) {
      // The join's Error answers the request; the owner holds a member nobody will release otherwise.
      void deps.control.leave(conn.sessionId, conn.clientId).catch(() => undefined);
      throw err;
    }
    if (!advance(conn, 'joined')) {
      // Closed meanwhile: the owner holds a member nobody will release otherwise.
      void deps.control.leave(conn.sessionId, conn.clientId).catch(() => undefined);
      return;
    }
    conn.role = result.grant.role;
    if (p.client_label !== undefined) conn.label = p.client_label;
    deps.audit?.attach(conn, result.grant, requestedRole);
    hub.goOffline(conn);
    sendRoleAssigned(conn, result.grant);

    // Flush: replay (or just this join's MembershipChanged) up to the keyframe's anchor.
    let from = result.membershipSeq - 1;
    if (verdict?.outOfRange) sendBindingError(conn, verdict.outOfRange, f.id);
    if (replay) {
      await hub.sendPaced(conn, replay, REPLAY_STALL_MS);
      deps.metrics?.replayFramesServed(replay.length);
      from = Math.max(conn.position, Math.min(from, f.replay_from ?? from));
    }
    await sendLogRange(this.ctx, conn, from, result.keyframe.anchorSeq);
    sendKeyframe(conn, result.keyframe);
    await hub.catchUp(conn);
  }

  /** The owner's join, or 'closed' when it refused because the session closed meanwhile. */
  private async controlJoin(conn: Conn, req: JoinRequest): Promise<JoinResult | 'closed'> {
    try {
      return await this.ctx.deps.control.join(conn.sessionId, req);
    } catch (err) {
      if (err instanceof BindingError && err.code === 'INVALID_REQUEST' && (await this.sessionEnded(conn))) {
        return 'closed';
      }
      throw err;
    }
  }

  /**
   * The session ended, by its registry record or by its log's last frame: the owner appends
   * `Closed` before the record says closed, but a session whose log was given up is recorded
   * closed while its log holds no `Closed` yet (and may not be readable). Either that cannot be
   * read counts as no.
   */
  private async sessionEnded(conn: Conn): Promise<boolean> {
    const record = await this.ctx.deps.registry.get(conn.sessionId).catch(() => undefined);
    return record?.state === 'closed' || (await this.logEndsClosed(conn).catch(() => false));
  }

  private async logEndsClosed(conn: Conn): Promise<boolean> {
    const { log } = this.ctx.deps;
    const { lastSeq } = await log.bounds(conn.sessionId);
    return logEndsInClosed(log, conn.sessionId, lastSeq);
  }

  /**
   * A join to a session that has closed but is still retained: there is nothing to join, but the
   * log tells what happened. The connection gets what it would have received had it stayed: the
   * frames after `replay_from` (REPLAY_OUT_OF_RANGE first when they are gone; without
   * `replay_from`, the last frame alone), which end in `Closed`, then binding_goodbye
   * session_closed like every connection at the close (extension: Close lifecycle), after an Error
   * INTERNAL when that `Closed` has reason `error` (goodbyeAtClose).
   *
   * A log that holds no `Closed` yet (its owner gave it up and has not appended it: the log takes
   * no writes yet, or never did again) still ends the replay in one: made here from the registry's
   * record (closedAfterLog). A log that cannot be read ends the connection with an Error INTERNAL
   * and close 1011 (unreadable), as a replay whose read fails does: never a goodbye alone.
   *
   * The frames go at the reader's pace, however slow: the log no longer grows, so there is nothing
   * to skip to and no live screen to hand over instead (a reader that answers no pings is ended by
   * the keepalive like any half-open peer). Should a send still fail, the reader is told where its
   * replay stopped (cutClosedReplay), never sent a goodbye as if it had it all.
   */
  private async joinClosed(conn: Conn, f: ClientFrameOf<'pty.join_session'>): Promise<void> {
    conn.closedJoinTimer?.cancel(); // the join ends the connection itself
    const { deps } = this.ctx;
    const hub = hubOf(this.ctx, conn);
    let verdict: ReplayVerdict | undefined;
    let bounds: LogBounds;
    try {
      verdict = await judgeReplay(this.ctx, conn, f.replay_from);
      bounds = verdict?.bounds ?? (await deps.log.bounds(conn.sessionId));
    } catch (err) {
      return this.unreadable(conn, err, f.id);
    }
    let from = bounds.lastSeq - 1;
    if (verdict?.outOfRange) sendBindingError(conn, verdict.outOfRange, f.id);
    else if (verdict) from = f.replay_from ?? from;
    // Replaying, so the log frames pass the hub's filter; never a member.
    if (!advance(conn, 'replaying')) return;
    // The log's Closed may have reached this edge since its bounds were read: the replay ends in it.
    const toSeq = Math.max(bounds.lastSeq, hub.closedSeq ?? 0);
    const whole = await hub.sendRange(conn, from, toSeq);
    if (!conn.open) return;
    const frames = conn.lastSeq - Math.max(from, 0);
    deps.metrics?.replayFramesServed(frames);
    this.ctx.log(conn).info({ replay_from: f.replay_from ?? null, frames, whole }, 'join after close: replayed');
    if (!whole) return this.cutClosedReplay(conn);
    const goodbyeDeps = { goodbye: this.ctx.goodbye.bind(this.ctx), audit: deps.audit };
    let fault: Fault | undefined;
    if (conn.closedReason === undefined) {
      try {
        fault = await this.closedAfterLog(conn, from, toSeq);
      } catch (err) {
        return this.unreadable(conn, err, f.id);
      }
      if (!conn.open) return;
    }
    // Its Closed has reason error: an Error follows it, as on every connection at such a close.
    goodbyeAtClose(goodbyeDeps, conn, fault);
  }

  /**
   * The replay of a closed session's log sent no `Closed` (the log holds none, or the reader had
   * it: `replay_from` at the log's end): when the log's last frame is no `Closed`, one made here
   * from the registry's record of the close (reason `error`, no exit code, when it says nothing
   * else), at the sequence after the log's last: the one the log's own `Closed` gets when its
   * owner appends it after what the log holds (pty-agent log-cut.ts), so never a real frame's.
   * Returns the fault its Error tells when its reason is `error`.
   */
  private async closedAfterLog(conn: Conn, from: number, lastSeq: number): Promise<Fault | undefined> {
    const { deps } = this.ctx;
    if (from >= lastSeq && (await logEndsInClosed(deps.log, conn.sessionId, lastSeq))) return undefined;
    const record = await deps.registry.get(conn.sessionId);
    const reason = record?.closedReason ?? 'error';
    const exitCode = reason === 'error' ? null : (record?.exitCode ?? null);
    sendClosed(conn, { seq: Math.max(lastSeq, conn.position) + 1, exitCode, reason });
    this.ctx.log(conn).warn({ seq: conn.lastSeq, reason }, 'join after close: the log holds no Closed; sent one');
    return reason === 'error' ? { message: CLOSED_NOT_LOGGED, via: 'registry' } : undefined;
  }

  /** A join after the close could not read the log: Error INTERNAL and close 1011, never a goodbye alone. */
  private unreadable(conn: Conn, err: unknown, requestId: string): void {
    const why = err instanceof Error ? err.message : String(err);
    this.ctx.log(conn).warn({ err: why }, 'join after close: frame log read failed');
    const message = `the session is closed and its frame log could not be read (${why}): join again later to replay it`;
    this.ctx.fail(conn, 'INTERNAL', message, requestId, CloseCode.SERVER_ERROR);
  }

  /**
   * A closed session's replay could not be sent whole: PTY_OUTPUT_LAGGED, KEYFRAME_UNAVAILABLE (a
   * closed session has no live screen), and a goodbye that says where to replay from again.
   */
  private cutClosedReplay(conn: Conn): void {
    const at = conn.lastSeq;
    sendPtyError(conn, 'PTY_OUTPUT_LAGGED', `the replay was cut after sequence ${at}; no Keyframe follows`);
    sendPtyError(conn, 'KEYFRAME_UNAVAILABLE', 'the session is closed: there is no live screen to send');
    this.ctx.goodbye(
      conn,
      'session_closed',
      CloseCode.NORMAL,
      `replay cut after sequence ${at}: join again with replay_from ${at}`,
    );
  }

  async leave(conn: Conn): Promise<void> {
    if (!advance(conn, 'leaving')) return;
    await this.ctx.deps.control.leave(conn.sessionId, conn.clientId);
    // Leaving still receives log frames until the goodbye: the socket stays live and gets the
    // final MembershipChanged from the hub, which counts it in `lastSeq`, so the goodbye carries
    // its sequence.
    this.ctx.goodbye(conn, 'other', CloseCode.NORMAL, 'left the session');
  }

  async setRole(conn: Conn, role: PtyRole, why: 'requested' | 'released'): Promise<void> {
    if (role === 'controller' && !canControl(conn.principal)) {
      throw new BindingError('PERMISSION_DENIED', 'the principal lacks pty:control and cannot be a controller');
    }
    const { deps } = this.ctx;
    const result = await deps.control.setRole(conn.sessionId, conn.clientId, role, canControl(conn.principal));
    const from = conn.role;
    conn.role = result.grant.role;
    if (from !== conn.role) deps.audit?.roleChange(conn, from, conn.role, result.grant.reason ?? why);
    const hub = hubOf(this.ctx, conn);
    // RoleAssigned and the role-transition Keyframe go out before the MembershipChanged catches up.
    hub.goOffline(conn);
    sendRoleAssigned(conn, result.grant);
    await sendLogRange(this.ctx, conn, conn.position, result.keyframe.anchorSeq);
    sendKeyframe(conn, result.keyframe);
    await hub.catchUp(conn);
  }
}

/** What a reader joining after the close is told when the log holds no `Closed` and the registry says `error`. */
const CLOSED_NOT_LOGGED = `${CLOSED_IN_ERROR}; the log holds no Closed yet: this one was made from the session's record`;

function sendBindingError(conn: Conn, err: BindingError, requestId: string): void {
  sendError(conn, err.code, err.message, requestId, err.data);
}
