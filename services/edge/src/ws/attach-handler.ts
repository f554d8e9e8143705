import {
  BINDING_URI,
  BINDING_VERSION,
  BindingError,
  EXTENSION_URI,
  FrameRejected,
  MAX_DIMENSION,
  MIN_COLS,
  MIN_ROWS,
  PUSH_NOTIFICATION_OPS,
  SUBPROTOCOL_BINARY,
  SUBPROTOCOL_JSON,
  SUPPORTED_OPERATIONS,
  CloseCode,
  decodeBase64,
  decodeInputFrame,
  errorPayload,
  newId,
  parseClientFrame,
  resolveHostSelection,
  rfc3339,
  type BindingErrorCode,
  type ClientFrame,
  type GoodbyeReason,
  type JoinSessionPayload,
  type Message,
  type PtyRole,
  type SessionHostCapabilities,
} from '@pty-ws/protocol';
import { normalizeRole } from '@pty-ws/a2a';
import type { FrameLog, JoinRequest, JoinResult, Keyframe, LogEntry, SessionControl } from '@pty-ws/ports';
import { replayInRange } from '@pty-ws/ports';
import {
  SpanKind,
  childLogger,
  globalTracer,
  inSpan,
  logTraceId,
  startRequestSpan,
  traceIdOf,
  type EdgeMetrics,
  type Tracer,
} from '@pty-ws/telemetry';
import { canControl } from '../auth';
import { FrameLimiter, base64DecodedLength, type FrameLimits, type FrameVerdict } from '../limits';
import type { EdgeAudit } from '../audit/edge-audit';
import type { Logger } from '../logger';
import type { WebSocket } from '../uws';
import type { Conn } from './connection';
import type { HubRegistry } from './hubs';
import { taskTopic, type SessionHub } from './session-hub';

export interface AttachDeps {
  control: SessionControl;
  log: FrameLog;
  hubs: HubRegistry;
  logger: Logger;
  edgeId: string;
  /** What hello advertises; a function where it changes (cluster: the live agents' capabilities). */
  sessionHost: SessionHostSource;
  metrics?: EdgeMetrics;
  /** Per-connection inbound budget; absent: unlimited (unit harnesses). */
  frameLimits?: FrameLimits;
  /** Where request spans go; default the process's global tracer provider (the edge service). */
  tracer?: Tracer;
  /** Attaches, role changes, input attribution, resizes; absent: not audited. */
  audit?: EdgeAudit;
}

/** Hot-path frames: no span per keystroke or keepalive. */
const UNTRACED_OPS = new Set(['pty.session_input', 'ping']);

/**
 * A connection to a closed session has one thing to do, join (it replays the end and is closed);
 * one that sends no join within this long gets binding_goodbye session_closed instead of staying
 * open forever.
 */
export const CLOSED_SESSION_JOIN_GRACE_MS = 10_000;

export type SessionHostSource = SessionHostCapabilities | (() => SessionHostCapabilities);

function currentSessionHost(source: SessionHostSource): SessionHostCapabilities {
  return typeof source === 'function' ? source() : source;
}

/** Failures the PTY reports for one request: sent as a pty.session_frame Error, connection stays up. */
interface PtyFailureLike {
  code: 'PTY_WRITE_FAILED' | 'PTY_RESIZE_FAILED' | 'KEYFRAME_UNAVAILABLE';
  message: string;
}
function isPtyFailure(e: unknown): e is PtyFailureLike {
  return e instanceof Error && e.name === 'PtyFailure';
}

/**
 * The pty-ws/v1 binding for one edge: turns client frames into SessionControl calls and
 * session-log frames into socket writes. Every per-connection frame carries the sequence of the
 * last log frame written to that connection, so `sequence` never decreases on a socket.
 */
export class AttachHandler {
  readonly conns = new Set<Conn>();
  private readonly tracer: Tracer;
  /** Per-connection child loggers, remade when the connection's service parameters change. */
  private readonly loggers = new WeakMap<Conn, { params: Conn['serviceParameters']; logger: Logger }>();

  constructor(private readonly deps: AttachDeps) {
    this.tracer = deps.tracer ?? globalTracer('@pty-ws/edge');
  }

  /** Log lines about a connection carry its session, client and (once the client sent one) trace id. */
  private log(conn: Conn): Logger {
    const cached = this.loggers.get(conn);
    if (cached && cached.params === conn.serviceParameters) return cached.logger;
    const traceId = logTraceId(conn.serviceParameters);
    const logger = childLogger(this.deps.logger, {
      session_id: conn.sessionId,
      client_id: conn.clientId,
      ...(traceId ? { trace_id: traceId } : {}),
    });
    this.loggers.set(conn, { params: conn.serviceParameters, logger });
    return logger;
  }

  // ---- lifecycle --------------------------------------------------------------------------------

  async open(ws: WebSocket<Conn>): Promise<void> {
    const conn = ws.getUserData();
    conn.ws = ws;
    conn.open = true;
    this.conns.add(conn);
    this.deps.metrics?.connectionOpened(conn.binary);
    // Leave the uWS open callback before touching other sockets: creating a NATS subscription
    // synchronously inside it (we are still within res.upgrade) made uWS drop this socket (1006).
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!conn.open) return;
    let hub: SessionHub;
    try {
      hub = await this.deps.hubs.acquire(conn.sessionId);
    } catch (err) {
      this.log(conn).error({ err: (err as Error).message }, 'frame log unavailable');
      this.fail(conn, 'INTERNAL', 'the session frame log is unavailable', undefined, CloseCode.SERVER_ERROR);
      return;
    }
    if (!conn.open) return;
    hub.add(conn);
    this.sendDirect(conn, 'binding_hello', {
      binding_uri: BINDING_URI,
      binding_version: BINDING_VERSION,
      supported_operations: [...SUPPORTED_OPERATIONS],
      activated_extensions: [EXTENSION_URI],
      session: { session_id: conn.sessionId, current_sequence: hub.head },
      session_host: currentSessionHost(this.deps.sessionHost),
      payload_mode: { binary: conn.binary, binary_subprotocol: SUBPROTOCOL_BINARY, json_subprotocol: SUBPROTOCOL_JSON },
    });
    this.log(conn).info(
      {
        principal: conn.principal.id,
        remote: conn.remoteAddress,
        binary: conn.binary,
      },
      'attach',
    );
    if (conn.sessionClosed) {
      conn.closedJoinTimer = setTimeout(
        () => this.goodbye(conn, 'session_closed', CloseCode.NORMAL, 'the session is closed and no join came'),
        CLOSED_SESSION_JOIN_GRACE_MS,
      );
      conn.closedJoinTimer.unref();
    }
    // Frames that arrived while the hello was being prepared are handled now, in order.
    const held = conn.heldFrames;
    conn.heldFrames = undefined;
    for (const f of held ?? []) this.message(conn, f.data, f.isBinary);
  }

  /** The socket is gone (any reason): release roles and detach (binding §2.4 detach cleanup). */
  closed(conn: Conn, code: number): void {
    if (!conn.open) return;
    conn.open = false;
    conn.live = false;
    clearTimeout(conn.closedJoinTimer);
    this.conns.delete(conn);
    const hub = this.deps.hubs.get(conn.sessionId);
    hub?.remove(conn);
    this.deps.hubs.release(conn.sessionId);
    if (conn.attached) {
      conn.attached = false;
      void this.deps.control.leave(conn.sessionId, conn.clientId).catch(() => undefined);
    }
    this.deps.audit?.detach(conn, conn.role, code);
    this.log(conn).info({ code }, 'detach');
  }

  /** Sends binding_goodbye then closes: the orderly close of binding §5.4. */
  goodbye(conn: Conn, reason: GoodbyeReason, code: number = CloseCode.NORMAL, detail?: string): void {
    if (!conn.open || !conn.ws) return;
    this.sendDirect(conn, 'binding_goodbye', detail ? { reason, detail } : { reason });
    const ws = conn.ws;
    this.closed(conn, code);
    ws.end(code, reason);
  }

  // ---- inbound ----------------------------------------------------------------------------------

  message(conn: Conn, data: ArrayBuffer, isBinary: boolean): void {
    if (conn.heldFrames) {
      // binding_hello must be the first frame (§5.1): nothing is processed before it is sent.
      conn.heldFrames.push({ data: data.slice(0), isBinary });
      return;
    }
    this.deps.metrics?.frameIn(isBinary ? 'binary' : 'json', data.byteLength);
    if (!conn.open || conn.leaving) return;
    const limiter = this.limiterOf(conn);
    const admitted = limiter?.frame();
    if (admitted && !admitted.ok) return this.rateLimited(conn, admitted, isBinary ? undefined : requestIdOf(data));
    if (isBinary) {
      // Frame size is what a PW1I frame costs; the 4-byte magic is noise at these rates.
      const bytes = limiter?.inputBytes(data.byteLength);
      if (bytes && !bytes.ok) return this.rateLimited(conn, bytes, undefined);
      return this.binaryInput(conn, new Uint8Array(data.slice(0)));
    }
    let frame: ClientFrame;
    try {
      frame = parseClientFrame(Buffer.from(data).toString('utf8'));
    } catch (err) {
      if (err instanceof FrameRejected) return this.sendError(conn, err.code, err.message, err.requestId);
      return this.sendError(conn, 'INTERNAL', 'could not read the frame');
    }
    if (limiter && frame.op === 'pty.session_input' && typeof frame.payload['data'] === 'string') {
      const bytes = limiter.inputBytes(base64DecodedLength(frame.payload['data']));
      if (!bytes.ok) return this.rateLimited(conn, bytes, frame.id);
    }
    this.firstFrame(conn, frame);
    void this.traced(conn, frame).catch((err: unknown) => this.reject(conn, frame.id, err));
  }

  /**
   * One SERVER span per request (SendMessage, GetTask, pty.join_session, …), in the trace the
   * connection's `service_parameters.trace_id` names when it is a W3C trace id. The control calls
   * it makes (NATS request, agent, Postgres) become its children.
   */
  private traced(conn: Conn, f: ClientFrame): Promise<void> {
    if (UNTRACED_OPS.has(f.op)) return this.dispatch(conn, f);
    const traceId = traceIdOf(conn.serviceParameters);
    const span = startRequestSpan(this.tracer, f.op, {
      kind: SpanKind.SERVER,
      ...(traceId ? { traceId } : {}),
      attributes: {
        'rpc.system': 'pty-ws',
        'rpc.method': f.op,
        'ptyws.session_id': conn.sessionId,
        'ptyws.client_id': conn.clientId,
        'ptyws.request_id': f.id,
      },
    });
    return inSpan(span, () => this.dispatch(conn, f));
  }

  private limiterOf(conn: Conn): FrameLimiter | undefined {
    if (!this.deps.frameLimits) return undefined;
    return (conn.limiter ??= new FrameLimiter(this.deps.frameLimits));
  }

  /** Over a per-connection limit: an Error for this frame, or goodbye + 4429 once it is sustained. */
  private rateLimited(conn: Conn, verdict: Exclude<FrameVerdict, { ok: true }>, requestId: string | undefined): void {
    this.deps.metrics?.rateLimited(verdict.limit);
    if (verdict.abusive) {
      this.log(conn).warn(
        { principal: conn.principal.id, limit: verdict.limit },
        'closing a connection that kept exceeding its rate limit',
      );
      this.sendError(conn, 'RATE_LIMITED', verdict.message, requestId);
      return this.goodbye(conn, 'rate_limited', CloseCode.RATE_LIMITED, verdict.message);
    }
    this.sendError(conn, 'RATE_LIMITED', verdict.message, requestId);
  }

  private firstFrame(conn: Conn, frame: ClientFrame): void {
    if (conn.firstFrameSeen) return;
    conn.firstFrameSeen = true;
    if (frame.service_parameters) conn.serviceParameters = frame.service_parameters;
    // An explicit extensions list without ours deactivates the PTY verbs for this connection.
    if (frame.extensions) conn.extensionActive = frame.extensions.includes(EXTENSION_URI);
  }

  private async dispatch(conn: Conn, f: ClientFrame): Promise<void> {
    const p = f.payload;
    if (typeof p['session_id'] === 'string' && p['session_id'] !== conn.sessionId) {
      throw new BindingError('PERMISSION_DENIED', 'this connection is bound to another session (binding §11)');
    }
    if (f.op.startsWith('pty.') && !conn.extensionActive) {
      throw new BindingError('UNSUPPORTED_OPERATION', `${f.op} needs the ${EXTENSION_URI} extension activated`);
    }
    if (PUSH_NOTIFICATION_OPS.has(f.op)) {
      throw new BindingError(
        'UNSUPPORTED_OPERATION',
        `${f.op} is not supported on pty-ws/v1; use the REST or JSON-RPC binding for push notification configs`,
        { fallback: ['HTTP+JSON', 'JSONRPC'] },
      );
    }
    switch (f.op) {
      case 'ping':
        return this.reply(conn, f, 'pong', { client_ts: String(p['client_ts'] ?? ''), server_ts: rfc3339() });
      case 'UpdateServiceParameters':
        conn.serviceParameters = p['service_parameters'] as Record<string, unknown>;
        return this.reply(conn, f, 'UpdateServiceParameters.Response', {});
      case 'SendMessage':
        this.requireControl(conn, 'start tasks');
        return this.sendMessage(conn, f);
      case 'SendStreamingMessage':
        this.requireControl(conn, 'start tasks');
        return this.sendStreamingMessage(conn, f);
      case 'GetTask': {
        const task = await this.deps.control.getTask(
          conn.sessionId,
          String(p['task_id']),
          p['history_length'] as number | undefined,
        );
        return this.reply(conn, f, 'GetTask.Response', { task });
      }
      case 'ListTasks': {
        const filter = (p['filter'] ?? {}) as { state?: string; context_id?: string };
        const page = await this.deps.control.listTasks(conn.sessionId, {
          pageSize: (p['page_size'] as number | undefined) ?? 50,
          ...(typeof p['page_token'] === 'string' && p['page_token'] ? { pageToken: p['page_token'] } : {}),
          ...(filter.state ? { state: filter.state } : {}),
          ...(filter.context_id ? { contextId: filter.context_id } : {}),
        });
        return this.reply(conn, f, 'ListTasks.Response', {
          tasks: page.tasks,
          next_page_token: page.nextPageToken ?? null,
        });
      }
      case 'CancelTask': {
        this.requireControl(conn, 'cancel tasks');
        const task = await this.deps.control.cancelTask(conn.sessionId, String(p['task_id']));
        return this.reply(conn, f, 'CancelTask.Response', { task });
      }
      case 'SubscribeToTask':
        return this.subscribeToTask(conn, f);
      case 'Unsubscribe':
        return this.unsubscribe(conn, f);
      default:
        return this.queuePty(conn, f);
    }
  }

  /** PTY verbs of one connection run one after another, in arrival order. */
  private queuePty(conn: Conn, f: ClientFrame): Promise<void> {
    const run = conn.ptyQueue.then(() => (conn.open ? this.pty(conn, f) : undefined));
    conn.ptyQueue = run.catch(() => undefined);
    return run;
  }

  private async pty(conn: Conn, f: ClientFrame): Promise<void> {
    const p = f.payload;
    if (f.op === 'pty.join_session') return this.join(conn, f);
    if (!conn.attached) throw new BindingError('INVALID_REQUEST', `${f.op} needs pty.join_session first`);
    switch (f.op) {
      case 'pty.leave_session':
        return this.leave(conn);
      case 'pty.session_input':
        return this.input(conn, decodeBase64(String(p['data'])));
      case 'pty.session_resize':
        return this.resize(conn, p['cols'] as number, p['rows'] as number, f.id);
      case 'pty.request_role':
        return this.setRole(conn, p['role'] as PtyRole, 'requested');
      case 'pty.release_role':
        return this.setRole(conn, 'observer', 'released');
      case 'pty.request_keyframe': {
        const now = Date.now();
        if (now - conn.lastKeyframeRequestAt < 1000) {
          this.deps.metrics?.rateLimited('request_keyframe');
          throw new BindingError('RATE_LIMITED', 'pty.request_keyframe is limited to one per second per connection');
        }
        conn.lastKeyframeRequestAt = now;
        return this.sendKeyframe(conn, await this.keyframeOrFail(conn));
      }
      default:
        throw new BindingError('UNSUPPORTED_OPERATION', `unsupported operation '${f.op}'`);
    }
  }

  /** pty:observe grants task reads only (binding §7.2); starting or cancelling needs pty:control. */
  private requireControl(conn: Conn, what: string): void {
    if (!canControl(conn.principal))
      throw new BindingError('PERMISSION_DENIED', `the principal lacks pty:control and cannot ${what}`);
  }

  // ---- PTY verbs --------------------------------------------------------------------------------

  private async join(conn: Conn, f: ClientFrame): Promise<void> {
    if (conn.attached) throw new BindingError('INVALID_REQUEST', 'this connection has already joined the session');
    if (conn.sessionClosed) return this.joinClosed(conn, f);
    const p = f.payload as JoinSessionPayload;
    this.checkSessionHost(p);
    const size =
      p.terminal_size ?? (p.cols !== undefined && p.rows !== undefined ? { cols: p.cols, rows: p.rows } : undefined);
    if (size) checkSize(size.cols, size.rows);
    const requestedRole: PtyRole = p.role ?? (canControl(conn.principal) ? 'controller' : 'observer');
    const hub = this.hub(conn);
    // The replay window is judged, and read, as of the join request: the join's own frames may
    // trigger a trim that would otherwise push a valid replay_from out of range.
    let replay: LogEntry[] | undefined;
    let outOfRange: { replayFrom: number; firstSeq: number; lastSeq: number } | undefined;
    if (f.replay_from !== undefined && f.replay_from !== null) {
      this.deps.metrics?.replayRequested();
      const bounds = await this.deps.log.bounds(conn.sessionId);
      if (replayInRange(f.replay_from, bounds)) {
        replay = await this.deps.log.read(conn.sessionId, f.replay_from, { toSeq: bounds.lastSeq });
      } else {
        this.deps.metrics?.replayOutOfRange();
        outOfRange = { replayFrom: f.replay_from, firstSeq: bounds.firstSeq, lastSeq: bounds.lastSeq };
      }
    }
    const result = await this.controlJoin(conn, {
      clientId: conn.clientId,
      edgeId: this.deps.edgeId,
      principalId: conn.principal.id,
      canControl: canControl(conn.principal),
      requestedRole,
      ...(p.client_label !== undefined ? { label: p.client_label } : {}),
      ...(size ? { size } : {}),
    });
    if (result === 'closed') return this.joinClosed(conn, f);
    if (!conn.open) {
      void this.deps.control.leave(conn.sessionId, conn.clientId).catch(() => undefined);
      return;
    }
    conn.attached = true;
    conn.role = result.grant.role;
    if (p.client_label !== undefined) conn.label = p.client_label;
    this.deps.audit?.attach(conn, result.grant, requestedRole);
    hub.goOffline(conn, true);
    this.sendRoleAssigned(conn, result.grant);

    // Flush: replay (or just this join's MembershipChanged) up to the keyframe's anchor.
    let from = result.membershipSeq - 1;
    if (outOfRange) {
      this.sendError(
        conn,
        'REPLAY_OUT_OF_RANGE',
        `replay_from ${outOfRange.replayFrom} is outside the retained window ${outOfRange.firstSeq - 1}..${outOfRange.lastSeq}`,
        f.id,
        { first_retained_sequence: outOfRange.firstSeq, last_sequence: outOfRange.lastSeq },
      );
    }
    if (replay) {
      for (const e of replay) hub.sendFrame(conn, hub.frameOf(e));
      this.deps.metrics?.replayFramesServed(replay.length);
      from = Math.max(conn.position, Math.min(from, f.replay_from ?? from));
    }
    await this.sendLogRange(conn, from, result.keyframe.anchorSeq);
    this.sendKeyframe(conn, result.keyframe);
    await hub.catchUp(conn);
  }

  /** The owner's join, or 'closed' when it refused because the session closed meanwhile. */
  private async controlJoin(conn: Conn, req: JoinRequest): Promise<JoinResult | 'closed'> {
    try {
      return await this.deps.control.join(conn.sessionId, req);
    } catch (err) {
      if (err instanceof BindingError && err.code === 'INVALID_REQUEST' && (await this.logEndsClosed(conn))) {
        return 'closed';
      }
      throw err;
    }
  }

  private async logEndsClosed(conn: Conn): Promise<boolean> {
    const { lastSeq } = await this.deps.log.bounds(conn.sessionId);
    const [last] = await this.deps.log.read(conn.sessionId, lastSeq - 1);
    return last?.type === 'event' && last.payload['kind'] === 'Closed';
  }

  /**
   * A join to a session that has closed but is still retained: there is nothing to join, but the
   * log tells what happened. The connection gets what it would have received had it stayed: the
   * frames after `replay_from` (REPLAY_OUT_OF_RANGE first when they are gone; without
   * `replay_from`, the last frame alone), which end in `Closed`, then binding_goodbye
   * session_closed like every connection at the close (extension: Close lifecycle).
   */
  private async joinClosed(conn: Conn, f: ClientFrame): Promise<void> {
    clearTimeout(conn.closedJoinTimer); // the join ends the connection itself
    const hub = this.hub(conn);
    const bounds = await this.deps.log.bounds(conn.sessionId);
    let from = bounds.lastSeq - 1;
    if (f.replay_from !== undefined && f.replay_from !== null) {
      this.deps.metrics?.replayRequested();
      if (replayInRange(f.replay_from, bounds)) {
        from = f.replay_from;
      } else {
        this.deps.metrics?.replayOutOfRange();
        this.sendError(
          conn,
          'REPLAY_OUT_OF_RANGE',
          `replay_from ${f.replay_from} is outside the retained window ${bounds.firstSeq - 1}..${bounds.lastSeq}`,
          f.id,
          { first_retained_sequence: bounds.firstSeq, last_sequence: bounds.lastSeq },
        );
      }
    }
    const entries = await this.deps.log.read(conn.sessionId, from, { toSeq: bounds.lastSeq });
    if (!conn.open) return;
    // Attached only for this flush, so the log frames pass the hub's filter; never a member.
    conn.attached = true;
    for (const e of entries) hub.sendFrame(conn, hub.frameOf(e));
    conn.attached = false;
    this.deps.metrics?.replayFramesServed(entries.length);
    this.log(conn).info({ replay_from: f.replay_from ?? null, frames: entries.length }, 'join after close: replayed');
    this.goodbye(conn, 'session_closed', CloseCode.NORMAL);
  }

  private async leave(conn: Conn): Promise<void> {
    conn.leaving = true;
    conn.attached = false;
    await this.deps.control.leave(conn.sessionId, conn.clientId);
    // The final MembershipChanged reached this socket through its topic before we close.
    this.goodbye(conn, 'other', CloseCode.NORMAL, 'left the session');
  }

  private async input(conn: Conn, data: Uint8Array): Promise<void> {
    if (!canControl(conn.principal)) throw new BindingError('PERMISSION_DENIED', 'the principal lacks pty:control');
    if (conn.role !== 'controller') throw new BindingError('PERMISSION_DENIED', 'observers cannot send input');
    this.deps.hubs.get(conn.sessionId)?.markInput();
    this.deps.audit?.input(conn, data.byteLength);
    try {
      await this.deps.control.input(conn.sessionId, conn.clientId, data);
    } catch (err) {
      if (isPtyFailure(err)) return this.sendPtyError(conn, err.code, err.message);
      throw err;
    }
  }

  private async resize(conn: Conn, cols: number, rows: number, requestId: string): Promise<void> {
    if (!canControl(conn.principal)) throw new BindingError('PERMISSION_DENIED', 'the principal lacks pty:control');
    if (conn.role !== 'controller') throw new BindingError('PERMISSION_DENIED', 'observers cannot resize');
    try {
      checkSize(cols, rows);
    } catch (err) {
      this.log(conn).info({ cols, rows }, 'pty_resize rejected');
      throw err;
    }
    try {
      await this.deps.control.resize(conn.sessionId, conn.clientId, { cols, rows });
      this.deps.audit?.resize(conn, cols, rows);
      this.log(conn).info({ cols, rows, request_id: requestId }, 'pty_resize accepted');
    } catch (err) {
      if (isPtyFailure(err)) return this.sendPtyError(conn, err.code, err.message);
      throw err;
    }
  }

  private async setRole(conn: Conn, role: PtyRole, why: 'requested' | 'released'): Promise<void> {
    if (role === 'controller' && !canControl(conn.principal)) {
      throw new BindingError('PERMISSION_DENIED', 'the principal lacks pty:control and cannot be a controller');
    }
    const result = await this.deps.control.setRole(conn.sessionId, conn.clientId, role, canControl(conn.principal));
    const from = conn.role;
    conn.role = result.grant.role;
    if (from !== conn.role) this.deps.audit?.roleChange(conn, from, conn.role, result.grant.reason ?? why);
    const hub = this.hub(conn);
    // RoleAssigned and the role-transition Keyframe go out before the MembershipChanged catches up.
    hub.goOffline(conn, true);
    this.sendRoleAssigned(conn, result.grant);
    await this.sendLogRange(conn, conn.position, result.keyframe.anchorSeq);
    this.sendKeyframe(conn, result.keyframe);
    await hub.catchUp(conn);
  }

  private binaryInput(conn: Conn, frame: Uint8Array): void {
    if (!conn.binary) {
      return this.sendError(conn, 'INVALID_REQUEST', `binary frames need the ${SUBPROTOCOL_BINARY} subprotocol`);
    }
    const data = decodeInputFrame(frame);
    if (!data) return this.sendError(conn, 'INVALID_REQUEST', 'binary frame is not a PW1I input frame (bad magic)');
    if (!conn.extensionActive) {
      return this.sendError(conn, 'UNSUPPORTED_OPERATION', `PTY input needs the ${EXTENSION_URI} extension`);
    }
    // Same queue as the JSON verbs, so binary and JSON input keep their arrival order.
    conn.ptyQueue = conn.ptyQueue.then(async () => {
      if (!conn.open) return;
      if (!conn.attached) return this.sendError(conn, 'INVALID_REQUEST', 'PTY input needs pty.join_session first');
      await this.input(conn, data).catch((err: unknown) => this.reject(conn, undefined, err));
    });
  }

  /** Backend/class validated as a pair against what hello advertised (binding §5.1.1). */
  private checkSessionHost(p: JoinSessionPayload): void {
    resolveHostSelection(currentSessionHost(this.deps.sessionHost), p.session_backend ?? p.backend, p.session_class);
  }

  // ---- A2A tasks ----------------------------------------------------------------------------------

  private async sendMessage(conn: Conn, f: ClientFrame): Promise<void> {
    const message = normalizeMessage(f.payload['message'] as Message);
    const task = await this.deps.control.sendMessage(conn.sessionId, {
      message,
      ...(conn.serviceParameters ? { serviceParameters: conn.serviceParameters } : {}),
    });
    this.log(conn).info({ task_id: task.id, state: task.status.state }, 'task finished (SendMessage)');
    this.reply(conn, f, 'SendMessage.Response', { task });
  }

  private async sendStreamingMessage(conn: Conn, f: ClientFrame): Promise<void> {
    const message = normalizeMessage(f.payload['message'] as Message);
    // Create (SUBMITTED, no frames), then subscribe and acknowledge, then run: the task exists
    // before anyone hears of it, and Accepted precedes its first TaskStatusUpdate on this socket.
    const task = await this.deps.control.createTask(conn.sessionId, {
      message,
      ...(conn.serviceParameters ? { serviceParameters: conn.serviceParameters } : {}),
    });
    this.addTaskSubscription(conn, task.id);
    this.log(conn).info({ task_id: task.id }, 'task accepted (SendStreamingMessage)');
    this.reply(conn, f, 'SendStreamingMessage.Accepted', { task_id: task.id });
    try {
      await this.deps.control.runTask(conn.sessionId, task.id);
    } catch (err) {
      this.removeTaskSubscription(conn, task.id);
      throw err;
    }
  }

  private async subscribeToTask(conn: Conn, f: ClientFrame): Promise<void> {
    const taskId = String(f.payload['task_id']);
    const task = await this.deps.control.getTask(conn.sessionId, taskId);
    const hub = this.hub(conn);
    const replayFrom = f.replay_from ?? undefined;
    if (replayFrom !== undefined) {
      this.deps.metrics?.replayRequested();
      const bounds = await this.deps.log.bounds(conn.sessionId);
      if (!replayInRange(replayFrom, bounds)) {
        this.deps.metrics?.replayOutOfRange();
        throw new BindingError(
          'REPLAY_OUT_OF_RANGE',
          `replay_from ${replayFrom} is outside the retained window ${bounds.firstSeq - 1}..${bounds.lastSeq}`,
          {
            first_retained_sequence: bounds.firstSeq,
            last_sequence: bounds.lastSeq,
          },
        );
      }
    }
    hub.goOffline(conn);
    conn.tasks.add(taskId);
    this.reply(conn, f, 'SubscribeToTask.Accepted', { current_sequence: hub.head });
    if (replayFrom !== undefined) {
      if (replayFrom < conn.position) {
        // Updates older than this socket's position cannot be resent without breaking the
        // sequence order: one unlogged snapshot of the task's state stands in for them.
        const final = ['COMPLETED', 'FAILED', 'CANCELED', 'REJECTED', 'INPUT_REQUIRED'].includes(task.status.state);
        // A task event like any other: it carries this connection's service parameters (binding §9).
        this.sendDirect(
          conn,
          'TaskStatusUpdate',
          { task, delta: { task_id: task.id, context_id: task.context_id, status: task.status, final } },
          newId(),
          conn.serviceParameters,
        );
      }
      await this.sendLogRange(conn, Math.max(replayFrom, conn.position), hub.head);
    } else {
      this.positionTaskOnly(conn);
    }
    await hub.catchUp(conn);
  }

  private async unsubscribe(conn: Conn, f: ClientFrame): Promise<void> {
    const taskId = String(f.payload['task_id']);
    if (!conn.tasks.has(taskId)) {
      await this.deps.control.getTask(conn.sessionId, taskId); // TASK_NOT_FOUND for unknown tasks
    }
    this.removeTaskSubscription(conn, taskId);
    this.reply(conn, f, 'Unsubscribe.Response', {});
  }

  private addTaskSubscription(conn: Conn, taskId: string): void {
    conn.tasks.add(taskId);
    if (conn.live && conn.ws) {
      conn.ws.subscribe(taskTopic(conn.sessionId, taskId));
      return;
    }
    this.positionTaskOnly(conn);
    // At the head this completes synchronously: the socket is live before any update exists.
    void this.hub(conn).catchUp(conn);
  }

  /** A connection that never joined has no history to catch up on: it starts at the head. */
  private positionTaskOnly(conn: Conn): void {
    const hub = this.hub(conn);
    if (!conn.attached && conn.position < hub.head) conn.position = hub.head;
  }

  private removeTaskSubscription(conn: Conn, taskId: string): void {
    conn.tasks.delete(taskId);
    if (conn.ws && conn.open) conn.ws.unsubscribe(taskTopic(conn.sessionId, taskId));
  }

  // ---- outbound -----------------------------------------------------------------------------------

  private hub(conn: Conn): SessionHub {
    const hub = this.deps.hubs.get(conn.sessionId);
    if (!hub) throw new BindingError('INTERNAL', 'session hub missing');
    return hub;
  }

  /** Sends log entries in (afterSeq, toSeq] that this connection has not seen yet. */
  private async sendLogRange(conn: Conn, afterSeq: number, toSeq: number): Promise<void> {
    let from = Math.max(afterSeq, 0);
    const hub = this.hub(conn);
    // Usually the hub published these moments ago: send its serialized frames, skip the log.
    if (hub.sendKept(conn, from, toSeq)) from = toSeq;
    while (from < toSeq && conn.open) {
      const entries = await this.deps.log.read(conn.sessionId, from, { toSeq, limit: 500 });
      if (entries.length === 0) break;
      for (const e of entries) hub.sendFrame(conn, hub.frameOf(e));
      from = entries[entries.length - 1]!.seq;
    }
    if (conn.position < toSeq) conn.position = toSeq;
  }

  /** Sends a frame addressed to this connection only: not logged, carries its last sequence. */
  sendDirect(
    conn: Conn,
    op: string,
    payload: unknown,
    id: string = newId(),
    serviceParameters?: Conn['serviceParameters'],
  ): void {
    if (!conn.open || !conn.ws) return;
    const frame: Record<string, unknown> = { op, id, ts: rfc3339(), sequence: conn.lastSeq, payload };
    if (serviceParameters) frame['service_parameters'] = serviceParameters;
    conn.ws.send(JSON.stringify(frame), false);
  }

  private reply(conn: Conn, request: ClientFrame, op: string, payload: unknown): void {
    this.sendDirect(conn, op, payload, request.id);
  }

  private sendRoleAssigned(conn: Conn, grant: { role: PtyRole; downgraded: boolean; reason?: string }): void {
    const payload: Record<string, unknown> = { kind: 'RoleAssigned', role: grant.role, client_id: conn.clientId };
    if (grant.downgraded) payload['downgraded'] = true;
    if (grant.reason) payload['reason'] = grant.reason;
    this.sendDirect(conn, 'pty.session_frame', payload);
  }

  sendKeyframe(conn: Conn, k: Keyframe): void {
    // The keyframe stands for every frame up to its anchor: the connection is now there.
    if (conn.lastSeq < k.anchorSeq) conn.lastSeq = k.anchorSeq;
    if (conn.position < k.anchorSeq) conn.position = k.anchorSeq;
    this.sendDirect(conn, 'pty.session_frame', {
      kind: 'Keyframe',
      snapshot: Buffer.from(k.snapshot, 'utf8').toString('base64'),
      snapshot_format: 'vt100-screen-state-v1',
      snapshot_cols: k.cols,
      snapshot_rows: k.rows,
      anchor_sequence: k.anchorSeq,
    });
  }

  private async keyframeOrFail(conn: Conn): Promise<Keyframe> {
    try {
      return await this.deps.control.keyframe(conn.sessionId);
    } catch (err) {
      if (err instanceof BindingError) throw err;
      throw new BindingError('INTERNAL', `keyframe unavailable: ${(err as Error).message}`);
    }
  }

  sendPtyError(conn: Conn, code: string, message: string): void {
    this.sendDirect(conn, 'pty.session_frame', { kind: 'Error', code, message });
  }

  sendError(
    conn: Conn,
    code: BindingErrorCode,
    message: string,
    requestId?: string,
    data?: Record<string, unknown>,
  ): void {
    this.sendDirect(conn, 'Error', errorPayload(code, message, data), requestId ?? newId());
  }

  private reject(conn: Conn, requestId: string | undefined, err: unknown): void {
    if (err instanceof BindingError) return this.sendError(conn, err.code, err.message, requestId, err.data);
    this.log(conn).error({ err: (err as Error)?.stack ?? String(err) }, 'request failed');
    this.sendError(conn, 'INTERNAL', 'internal error while handling the request', requestId);
  }

  /** A fatal error: Error frame, then close with the code's close code (binding §6). */
  fail(conn: Conn, code: BindingErrorCode, message: string, requestId: string | undefined, closeCode: number): void {
    this.sendError(conn, code, message, requestId);
    const ws = conn.ws;
    this.closed(conn, closeCode);
    ws?.end(closeCode, message.slice(0, 100));
  }

  /** A lagged observer drained: tell it what happened and hand it a fresh screen. */
  async resumeLagged(conn: Conn): Promise<void> {
    const hub = this.deps.hubs.get(conn.sessionId);
    if (!hub || !hub.drained(conn)) return;
    this.sendPtyError(
      conn,
      'PTY_OUTPUT_LAGGED',
      'output was skipped because this connection fell behind; a Keyframe follows',
    );
    try {
      this.sendKeyframe(conn, await this.deps.control.keyframe(conn.sessionId));
    } catch {
      this.sendPtyError(conn, 'KEYFRAME_UNAVAILABLE', 'no keyframe could be made after the lag');
    }
    await hub.catchUp(conn);
  }
}

function checkSize(cols: number, rows: number): void {
  if (cols < MIN_COLS || rows < MIN_ROWS || cols > MAX_DIMENSION || rows > MAX_DIMENSION) {
    throw new BindingError(
      'INVALID_REQUEST',
      `terminal size ${cols}x${rows} is outside ${MIN_COLS}..${MAX_DIMENSION} cols x ${MIN_ROWS}..${MAX_DIMENSION} rows`,
    );
  }
}

/** Accepts the lower-case A2A role spelling some clients send. */
function normalizeMessage(m: Message): Message {
  return { ...m, role: normalizeRole(m.role) ?? m.role };
}

/** The request id of a refused JSON frame, without parsing it: refusal must stay cheap. */
function requestIdOf(data: ArrayBuffer): string | undefined {
  const head = Buffer.from(data, 0, Math.min(data.byteLength, 512)).toString('utf8');
  const m = /"id"\s*:\s*"([^"\\]{1,128})"/.exec(head);
  return m?.[1];
}
