import {
  BINDING_URI,
  BINDING_VERSION,
  BindingError,
  EXTENSION_URI,
  PUSH_NOTIFICATION_OPS,
  SUBPROTOCOL_BINARY,
  SUBPROTOCOL_JSON,
  SUPPORTED_OPERATIONS,
  CloseCode,
  decodeBase64,
  decodeInputFrame,
  rfc3339,
  type BindingErrorCode,
  type ClientFrame,
  type GoodbyeReason,
} from '@pty-ws/protocol';
import {
  SpanKind,
  boundLogger,
  globalTracer,
  inSpan,
  logTraceId,
  startRequestSpan,
  traceIdOf,
  type Tracer,
} from '@pty-ws/telemetry';
import { systemClock, type Clock } from '@pty-ws/ports';
import { nextTurn } from '../next-turn';
import { canControl } from '../auth';
import type { Logger } from '../logger';
import type { WebSocket } from '../uws';
import { currentSessionHost, type AttachDeps, type BindingContext } from './binding-context';
import { advance, type Conn, type ConnSocketData } from './connection';
import { endWhenSent } from './end-when-sent';
import { sendDirect, sendError, sendGoodbye, sendReply } from './frame-writer';
import { FrameIntake } from './frame-intake';
import { JoinFlow } from './join-flow';
import { PtyVerbs } from './pty-verbs';
import type { SessionHub } from './session-hub';
import { TaskVerbs } from './task-verbs';

export type { AttachDeps, SessionHostSource } from './binding-context';

/** Hot-path frames: no span per keystroke or keepalive. */
const UNTRACED_OPS = new Set(['pty.session_input', 'ping']);

/**
 * A connection to a closed session has one thing to do, join (it replays the end and is closed);
 * one that sends no join within this long gets binding_goodbye session_closed instead of staying
 * open forever.
 */
export const CLOSED_SESSION_JOIN_GRACE_MS = 10_000;

/**
 * The pty-ws/v1 binding for one edge: the connection lifecycle, inbound frames (limits, parsing,
 * dispatch) and errors. The verbs live with their concern: join-flow.ts (join, replay, roles),
 * task-verbs.ts (A2A tasks), pty-verbs.ts (input, resize, keyframes); every per-connection frame
 * leaves through frame-writer.ts, which picks its sequence.
 */
export class AttachHandler implements BindingContext {
  readonly conns = new Set<Conn>();
  readonly clock: Clock;
  private readonly tracer: Tracer;
  private readonly joins = new JoinFlow(this);
  private readonly tasks = new TaskVerbs(this);
  private readonly ptyVerbs = new PtyVerbs(this);
  private readonly intake = new FrameIntake(this);

  constructor(readonly deps: AttachDeps) {
    this.tracer = deps.tracer ?? globalTracer('@pty-ws/edge');
    this.clock = deps.clock ?? systemClock;
  }

  /**
   * Log lines about a connection carry its session, client and (once the client sent one) trace id.
   * Bound per call, not a child logger kept per connection: connections log rarely (attach,
   * detach, errors), and a kept child cost each idle socket about 1 KB.
   */
  log(conn: Conn): Logger {
    const traceId = logTraceId(conn.serviceParameters);
    return boundLogger(this.deps.logger, {
      session_id: conn.sessionId,
      client_id: conn.clientId,
      ...(traceId ? { trace_id: traceId } : {}),
    });
  }

  // ---- lifecycle --------------------------------------------------------------------------------

  async open(ws: WebSocket<ConnSocketData>): Promise<void> {
    const conn = ws.getUserData().conn;
    conn.ws = ws;
    this.conns.add(conn);
    this.deps.metrics?.connectionOpened(conn.binary);
    // Leave the uWS open callback before touching other sockets: what is allocated inside it (we
    // are still within res.upgrade) can make uWS drop this socket (1006; claimUpgradeRemainder, uws.ts).
    await nextTurn();
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
    sendDirect(conn, 'binding_hello', {
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
      conn.closedJoinTimer = this.clock
        .setTimeout(
          () => this.goodbye(conn, 'session_closed', CloseCode.NORMAL, 'the session is closed and no join came'),
          CLOSED_SESSION_JOIN_GRACE_MS,
        )
        .unref();
    }
    advance(conn, 'ready');
    // Frames that arrived while the hello was being prepared are handled now, in order.
    const held = conn.heldFrames;
    conn.heldFrames = undefined;
    for (const f of held ?? []) this.handle(conn, f.data, f.bytes, f.isBinary);
  }

  /**
   * The one teardown of a connection, whoever ends it: uWS's close event for a socket the peer
   * closed, `end` for one this edge closes. Releases the role and detaches (binding §2.4 detach
   * cleanup); a second call does nothing.
   */
  closed(conn: Conn, code: number): void {
    // A leave in flight releases the member itself.
    const member = conn.member;
    if (!advance(conn, 'closed')) return;
    conn.closedJoinTimer?.cancel();
    this.conns.delete(conn);
    const hub = this.deps.hubs.get(conn.sessionId);
    hub?.remove(conn);
    this.deps.hubs.release(conn.sessionId);
    if (member) {
      void this.deps.control.leave(conn.sessionId, conn.clientId).catch(() => undefined);
    }
    this.deps.audit?.detach(conn, conn.role, code);
    this.log(conn).info({ code }, 'detach');
  }

  /** Sends binding_goodbye then closes: the orderly close of binding §5.4. */
  goodbye(conn: Conn, reason: GoodbyeReason, code: number = CloseCode.NORMAL, detail?: string): void {
    if (!conn.open || !conn.ws) return;
    sendGoodbye(conn, reason, detail);
    this.end(conn, code, reason);
  }

  /**
   * This edge ends the connection: the teardown first (so nothing more is sent), then the socket,
   * with a close frame carrying `reason` once what was sent before has left (end-when-sent.ts), or,
   * without one, dropped at once (the keepalive's half-open peers never answer a close handshake).
   */
  end(conn: Conn, code: number, reason?: string): void {
    conn.flushFeed?.(); // frames delivered this turn go before the close
    const ws = conn.ws;
    this.closed(conn, code);
    if (!ws || conn.socketClosed) return;
    if (reason === undefined) ws.close();
    else endWhenSent(ws, conn, code, reason, { clock: this.clock, stallMs: this.deps.closeStallMs ?? 90_000 });
  }

  // ---- inbound ----------------------------------------------------------------------------------

  message(conn: Conn, data: ArrayBuffer, isBinary: boolean): void {
    if (conn.phase === 'greeting') {
      // binding_hello must be the first frame (§5.1): nothing is processed before it is sent.
      // An oversized message is held by its head only: it is refused, never read.
      const keep = this.intake.oversized(data.byteLength) ? data.slice(0, 512) : data.slice(0);
      (conn.heldFrames ??= []).push({ data: keep, isBinary, bytes: data.byteLength });
      return;
    }
    this.handle(conn, data, data.byteLength, isBinary);
  }

  private handle(conn: Conn, data: ArrayBuffer, bytes: number, isBinary: boolean): void {
    const inbound = this.intake.admit(conn, data, bytes, isBinary);
    if (!inbound) return;
    if (inbound.binary) return this.binaryInput(conn, inbound.binary);
    const frame = inbound.frame;
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

  private async dispatch(conn: Conn, f: ClientFrame): Promise<void> {
    if (f.payload.session_id !== undefined && f.payload.session_id !== conn.sessionId) {
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
        return sendReply(conn, f.id, 'pong', { client_ts: f.payload.client_ts ?? '', server_ts: rfc3339() });
      case 'UpdateServiceParameters':
        conn.serviceParameters = f.payload.service_parameters;
        return sendReply(conn, f.id, 'UpdateServiceParameters.Response', {});
      case 'SendMessage':
        requireControl(conn, 'start tasks');
        return this.tasks.sendMessage(conn, f);
      case 'SendStreamingMessage':
        requireControl(conn, 'start tasks');
        return this.tasks.sendStreamingMessage(conn, f);
      case 'GetTask':
        return this.tasks.get(conn, f);
      case 'ListTasks':
        return this.tasks.list(conn, f);
      case 'CancelTask':
        return this.tasks.cancel(conn, f);
      case 'SubscribeToTask':
        return this.tasks.subscribe(conn, f);
      case 'Unsubscribe':
        return this.tasks.unsubscribe(conn, f);
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
    if (f.op === 'pty.join_session') return this.joins.join(conn, f);
    if (!conn.member) throw new BindingError('INVALID_REQUEST', `${f.op} needs pty.join_session first`);
    switch (f.op) {
      case 'pty.leave_session':
        return this.joins.leave(conn);
      case 'pty.session_input':
        return this.ptyVerbs.input(conn, decodeBase64(f.payload.data));
      case 'pty.session_resize':
        return this.ptyVerbs.resize(conn, f.payload.cols, f.payload.rows, f.id);
      case 'pty.request_role':
        return this.joins.setRole(conn, f.payload.role, 'requested');
      case 'pty.release_role':
        return this.joins.setRole(conn, 'observer', 'released');
      case 'pty.request_keyframe':
        return this.ptyVerbs.requestKeyframe(conn);
      default:
        throw new BindingError('UNSUPPORTED_OPERATION', `unsupported operation '${f.op}'`);
    }
  }

  private binaryInput(conn: Conn, frame: Uint8Array): void {
    if (!conn.binary) {
      return sendError(conn, 'INVALID_REQUEST', `binary frames need the ${SUBPROTOCOL_BINARY} subprotocol`);
    }
    const data = decodeInputFrame(frame);
    if (!data) return sendError(conn, 'INVALID_REQUEST', 'binary frame is not a PW1I input frame (bad magic)');
    if (!conn.extensionActive) {
      return sendError(conn, 'UNSUPPORTED_OPERATION', `PTY input needs the ${EXTENSION_URI} extension`);
    }
    // Same queue as the JSON verbs, so binary and JSON input keep their arrival order.
    conn.ptyQueue = conn.ptyQueue.then(async () => {
      if (!conn.open) return;
      if (!conn.member) return sendError(conn, 'INVALID_REQUEST', 'PTY input needs pty.join_session first');
      await this.ptyVerbs.input(conn, data).catch((err: unknown) => this.reject(conn, undefined, err));
    });
  }

  private reject(conn: Conn, requestId: string | undefined, err: unknown): void {
    if (err instanceof BindingError) return sendError(conn, err.code, err.message, requestId, err.data);
    this.log(conn).error({ err: (err as Error)?.stack ?? String(err) }, 'request failed');
    sendError(conn, 'INTERNAL', 'internal error while handling the request', requestId);
  }

  /** A fatal error: Error frame, then close with the code's close code (binding §6). */
  fail(conn: Conn, code: BindingErrorCode, message: string, requestId: string | undefined, closeCode: number): void {
    sendError(conn, code, message, requestId);
    this.end(conn, closeCode, message.slice(0, 100));
  }

  /** A lagged observer drained: tell it what happened and hand it a fresh screen. */
  resumeLagged(conn: Conn): Promise<void> {
    return this.ptyVerbs.resumeLagged(conn);
  }
}

/** pty:observe grants task reads only (binding §7.2); starting tasks needs pty:control. */
function requireControl(conn: Conn, what: string): void {
  if (!canControl(conn.principal)) {
    throw new BindingError('PERMISSION_DENIED', `the principal lacks pty:control and cannot ${what}`);
  }
}
