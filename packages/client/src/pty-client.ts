import type {
  BindingHelloPayload,
  ClientOp,
  DecodedOutput,
  Envelope,
  JoinSessionPayload,
  ListTasksPayload,
  Message,
  PtyRole,
  ServiceParameters,
  Task,
  TaskStatusUpdateEvent,
} from '@pty-ws/protocol';
import {
  CLIENT_OPS,
  clientFrame,
  encodeBase64,
  encodeInputFrame,
  EXTENSION_URI,
  MAX_DIMENSION,
  MIN_COLS,
  MIN_ROWS,
  rfc3339,
  utf8,
} from '@pty-ws/protocol';
import { Connection, type CloseInfo } from './connection';
import { Emitter } from './emitter';
import { isPtyWsError, PtyWsError } from './errors';
import type { ConnectionState, KeyframeEvent, MembershipEvent, PtyClientEvents, RoleEvent } from './events';
import { toMessage } from './messages';
import {
  backoffDelay,
  resolveOptions,
  type JoinOptions,
  type PayloadMode,
  type PtyClientOptions,
  type ResolvedOptions,
} from './options';
import { OpenGate } from './open-gate';
import { PtySession } from './pty-session';
import { RequestTracker } from './requests';
import { clearTimer, setTimer, type TimerHandle } from './runtime';
import { isFinalUpdate, TaskRegistry, TaskStream, type TaskUpdate } from './tasks';
import { payloadRecord, type ServerFrame } from './wire';

export interface RequestOptions {
  /** Overrides `requestTimeoutMs` for this call. */
  timeoutMs?: number;
  /** Envelope `replay_from`. */
  replayFrom?: number;
}

export interface ListTasksResult {
  tasks: Task[];
  nextPageToken: string | undefined;
}

export interface PingResult {
  clientTs: string;
  serverTs: string;
  rttMs: number;
}

/** goodbye reasons after which reconnecting cannot bring the session back. */
const FINAL_GOODBYES: ReadonlySet<string> = new Set(['session_closed', 'principal_revoked']);

/** Input bytes per frame: as JSON (base64, ~4/3) still well under the default 128 KiB frame limit. */
export const INPUT_CHUNK_BYTES = 64 * 1024;

/**
 * A client for one `(instance_id, session_id)` attach endpoint: the A2A core ops as promises, the
 * pty-extensions/v1 verbs, sequence tracking and automatic reconnect with replay.
 */
export class PtyClient extends Emitter<PtyClientEvents> {
  private readonly opts: ResolvedOptions;
  private readonly requests = new RequestTracker();
  private readonly tasks = new TaskRegistry();
  private readonly defaultRole: PtyRole | undefined;
  private readonly defaultLabel: string | undefined;
  private serviceParameters: ServiceParameters | undefined;

  private conn: Connection | undefined;
  private connecting: Promise<BindingHelloPayload> | undefined;
  private _state: ConnectionState = 'idle';
  private _hello: BindingHelloPayload | undefined;
  private _lastSequence = 0;
  private readonly pty = new PtySession(this.requests, (type, event) => this.emit(type, event));
  /** What join() asked for; re-sent after a reconnect (without its geometry). Undefined while not joined. */
  private joinRequest: JoinOptions | undefined;
  /** A size resize() could not send (no joined connection): the rejoin after a reconnect carries it. */
  private unsentSize: { cols: number; rows: number } | undefined;
  private readonly gate = new OpenGate();

  /** Set by leave()/close(): the user ended the client, so nothing reconnects. */
  private stopping: 'leave' | 'close' | undefined;
  /** Set by a final goodbye; with `Closed` (pty.processExited) the session is over: nothing reconnects. */
  private goodbyeFinal = false;
  /** The latest close of the active connection, read by the reconnect loop. */
  private lastClose: CloseInfo | undefined;
  /** The last attempt's socket was dropped right after the upgrade (Connection.droppedAfterUpgrade). */
  private lastAttemptDropped = false;
  private pauseTimer: TimerHandle | undefined;
  private pauseDone: (() => void) | undefined;

  constructor(options: PtyClientOptions) {
    super();
    this.opts = resolveOptions(options);
    this.serviceParameters = options.serviceParameters;
    this.defaultRole = options.role;
    this.defaultLabel = options.clientLabel;
  }

  /** Creates a client and connects it. */
  static async connect(options: PtyClientOptions): Promise<PtyClient> {
    const client = new PtyClient(options);
    await client.connect();
    return client;
  }

  // ---- state -----------------------------------------------------------------------------------

  get state(): ConnectionState {
    return this._state;
  }
  get mode(): PayloadMode {
    return this.opts.mode;
  }
  get url(): string {
    return this.opts.url;
  }
  /** The `binding_hello` payload of the current (or last) connection. */
  get hello(): BindingHelloPayload | undefined {
    return this._hello;
  }
  /** Highest `sequence` received on any connection: a valid `replay_from` (README interpretation 1). */
  get lastSequence(): number {
    return this._lastSequence;
  }
  get role(): PtyRole | undefined {
    return this.pty.role?.role;
  }
  get clientId(): string | undefined {
    return this.pty.role?.clientId;
  }
  get membership(): MembershipEvent | undefined {
    return this.pty.membership;
  }
  /** Terminal geometry from the last Keyframe or Resize. */
  get size(): { cols: number; rows: number } | undefined {
    return this.pty.size;
  }
  /** True once the join flush's Keyframe arrived on the current connection. */
  get isJoined(): boolean {
    return this.pty.joined;
  }

  private get sessionOver(): boolean {
    return this.goodbyeFinal || this.pty.processExited;
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /** Opens the WebSocket and resolves with `binding_hello`; no op is sent before it (binding §5.1). */
  connect(): Promise<BindingHelloPayload> {
    if (this._state === 'open' && this._hello) return Promise.resolve(this._hello);
    if (this.connecting) return this.connecting;
    if (this._state === 'reconnecting') {
      return this.whenOpen(this.opts.connectTimeoutMs).then(() => this._hello as BindingHelloPayload);
    }
    this.stopping = undefined;
    this.goodbyeFinal = false;
    this.pty.processExited = false;
    this.setState('connecting');
    const attempt = this.openConnection().then(
      (hello) => {
        if (this._state === 'connecting') this.setState('open');
        return hello;
      },
      (err: unknown) => {
        const error = asPtyWsError(err);
        this.finish(error);
        throw error;
      },
    );
    this.connecting = attempt;
    const clear = (): void => {
      if (this.connecting === attempt) this.connecting = undefined;
    };
    attempt.then(clear, clear);
    return attempt;
  }

  /**
   * Leaves the session (`pty.leave_session`), waits for the server's close, and closes the client.
   * No reconnect follows. The client may connect() again afterwards.
   */
  async leave(): Promise<void> {
    if (this._state === 'idle' || this._state === 'closed') return;
    this.stopping = 'leave';
    this.cancelPause();
    const conn = this.conn;
    if (conn?.isOpen && (this.pty.joined || this.pty.joining)) {
      try {
        conn.send(clientFrame('pty.leave_session', {}));
        let timer: TimerHandle;
        const timeout = new Promise<void>((resolve) => (timer = setTimer(resolve, this.opts.leaveTimeoutMs)));
        await Promise.race([conn.closed, timeout]);
        clearTimer(timer);
      } catch {
        // The socket went away in between: leaving is done either way.
      }
    }
    this.finish();
  }

  /** Closes without leaving (the server's detach cleanup releases the role). No reconnect follows. */
  close(): void {
    if (this._state === 'idle' || this._state === 'closed') return;
    this.stopping = 'close';
    this.finish();
  }

  // ---- PTY (pty-extensions/v1) -----------------------------------------------------------------

  /**
   * Sends `pty.join_session` and resolves with this connection's RoleAssigned once the join flush's
   * Keyframe arrived (extension: the Keyframe is the last frame of the flush). A REPLAY_OUT_OF_RANGE
   * error does not fail the join: it emits `replayLost` and the flush continues.
   */
  async join(options: JoinOptions = {}): Promise<RoleEvent> {
    const timeoutMs = this.opts.requestTimeoutMs;
    const started = Date.now();
    await this.whenOpen(timeoutMs);
    if (this.pty.joined || this.pty.joining)
      throw new PtyWsError('INVALID_STATE', 'already joined (or joining) this session');
    const { replayFrom, ...request } = options;
    if (request.role === undefined && this.defaultRole !== undefined) request.role = this.defaultRole;
    if (request.label === undefined && this.defaultLabel !== undefined) request.label = this.defaultLabel;
    const role = await this.sendJoin(request, replayFrom, remaining(timeoutMs, started));
    this.joinRequest = request;
    return role;
  }

  /**
   * Sends PTY input: a PW1I binary frame in binary mode, `pty.session_input` otherwise. Returns false
   * (and sends nothing) while not joined and open — keystrokes are dropped rather than queued, since
   * replaying them later into a changed screen could run the wrong thing. A large paste goes as
   * several frames of INPUT_CHUNK_BYTES, in order: the server refuses a message over its frame
   * limit (PTYWS_MAX_FRAME_BYTES, 128 KiB by default).
   */
  input(data: Uint8Array | string): boolean {
    const conn = this.conn;
    if (this._state !== 'open' || !this.pty.joined || !conn?.isOpen) return false;
    const bytes = typeof data === 'string' ? utf8(data) : data;
    for (let at = 0; at < bytes.length || at === 0; at += INPUT_CHUNK_BYTES) {
      const chunk = bytes.subarray(at, at + INPUT_CHUNK_BYTES);
      if (this.opts.mode === 'binary') conn.sendBinary(encodeInputFrame(chunk));
      else conn.send(clientFrame('pty.session_input', { data: encodeBase64(chunk) }));
    }
    return true;
  }

  /**
   * Sends `pty.session_resize`. Refuses (returns false, sends nothing) below the 20×5 floor, above
   * 1024, for non-integers, or while not joined: transient bogus sizes from a dragging window must not
   * reach the PTY (rendering rules, phase 1). Debouncing is the caller's job.
   */
  resize(cols: number, rows: number): boolean {
    if (!isDimension(cols, MIN_COLS) || !isDimension(rows, MIN_ROWS)) return false;
    const conn = this.conn;
    if (this._state !== 'open' || !this.pty.joined || !conn?.isOpen) {
      // Remembered for the rejoin after a reconnect: the local terminal has this size now.
      if (this.joinRequest) this.unsentSize = { cols, rows };
      return false;
    }
    this.unsentSize = undefined;
    conn.send(clientFrame('pty.session_resize', { cols, rows }));
    return true;
  }

  /** `pty.request_role`; resolves with the RoleAssigned that answers it (possibly a downgrade). */
  requestRole(role: PtyRole, options: RequestOptions = {}): Promise<RoleEvent> {
    return this.joinedRequest('pty.request_role', { role }, 'role', options);
  }

  /** `pty.release_role`: give up control; resolves with the RoleAssigned (observer). */
  releaseRole(options: RequestOptions = {}): Promise<RoleEvent> {
    return this.joinedRequest('pty.release_role', {}, 'role', options);
  }

  /** `pty.request_keyframe`; resolves with the next Keyframe. */
  requestKeyframe(options: RequestOptions = {}): Promise<KeyframeEvent> {
    return this.joinedRequest('pty.request_keyframe', {}, 'keyframe', options);
  }

  // ---- A2A core ops (binding §4) ---------------------------------------------------------------

  async sendMessage(message: Message | string, options: RequestOptions = {}): Promise<Task> {
    return this.call('SendMessage', { message: toMessage(message) }, options, taskOf);
  }

  /** Resolves once accepted, with a stream of the task's updates (events and async iterable). */
  async sendStreamingMessage(message: Message | string, options: RequestOptions = {}): Promise<TaskStream> {
    // The stream is created inside frame dispatch so updates sent right after the Accepted frame
    // (possibly in the same tick) already have somewhere to go.
    return this.call('SendStreamingMessage', { message: toMessage(message) }, options, (frame) => {
      const taskId = payloadRecord(frame)['task_id'];
      if (typeof taskId !== 'string' || !taskId) throw new Error('Accepted frame without task_id');
      return this.streamFor(taskId);
    });
  }

  async getTask(taskId: string, options: RequestOptions & { historyLength?: number } = {}): Promise<Task> {
    const payload =
      options.historyLength === undefined
        ? { task_id: taskId }
        : { task_id: taskId, history_length: options.historyLength };
    return this.call('GetTask', payload, options, taskOf);
  }

  async listTasks(
    query: { pageSize?: number; pageToken?: string | null; filter?: ListTasksPayload['filter'] } = {},
    options: RequestOptions = {},
  ): Promise<ListTasksResult> {
    const payload: ListTasksPayload = {};
    if (query.pageSize !== undefined) payload.page_size = query.pageSize;
    if (query.pageToken !== undefined) payload.page_token = query.pageToken;
    if (query.filter !== undefined) payload.filter = query.filter;
    return this.call('ListTasks', payload, options, (frame) => {
      const p = payloadRecord(frame);
      const token = p['next_page_token'];
      return {
        tasks: Array.isArray(p['tasks']) ? (p['tasks'] as Task[]) : [],
        nextPageToken: typeof token === 'string' && token ? token : undefined,
      };
    });
  }

  async cancelTask(taskId: string, options: RequestOptions = {}): Promise<Task> {
    return this.call('CancelTask', { task_id: taskId }, options, taskOf);
  }

  /**
   * `SubscribeToTask`; resolves with the task's stream (shared if one exists). The stream is
   * resubscribed with `replay_from` after a reconnect until it ends.
   */
  async subscribeToTask(taskId: string, options: RequestOptions = {}): Promise<TaskStream> {
    const started = Date.now();
    const timeoutMs = options.timeoutMs ?? this.opts.requestTimeoutMs;
    await this.whenOpen(timeoutMs);
    const existing = this.tasks.get(taskId);
    const stream = this.streamFor(taskId);
    try {
      await this.subscribeRequest(stream, options.replayFrom, remaining(timeoutMs, started));
    } catch (err) {
      if (stream !== existing) this.tasks.removeIf(stream);
      throw err;
    }
    return stream;
  }

  /** `Unsubscribe`; ends the task's stream. */
  async unsubscribe(taskId: string, options: RequestOptions = {}): Promise<void> {
    const stream = this.tasks.get(taskId);
    if (stream) this.tasks.removeIf(stream);
    try {
      await this.call('Unsubscribe', { task_id: taskId }, options, () => undefined);
    } finally {
      stream?.end();
    }
  }

  /** Replaces the connection's service parameters; later reconnects send the new ones. */
  async updateServiceParameters(params: ServiceParameters, options: RequestOptions = {}): Promise<void> {
    await this.call('UpdateServiceParameters', { service_parameters: params }, options, () => {
      this.serviceParameters = params;
    });
  }

  /** Application-level ping (binding §5.6). */
  async ping(options: RequestOptions = {}): Promise<PingResult> {
    const clientTs = rfc3339();
    const sent = Date.now();
    return this.call('ping', { client_ts: clientTs }, options, (frame) => {
      const serverTs = payloadRecord(frame)['server_ts'];
      return { clientTs, serverTs: typeof serverTs === 'string' ? serverTs : '', rttMs: Date.now() - sent };
    });
  }

  /**
   * Any client op, resolving with the raw answer frame (`<op>.Response` etc. per CLIENT_OPS, or the op
   * named by `expects`). Ops without a response frame settle only by `Error` or timeout. Meant for
   * ops without a typed method (push-notification config) and for conformance tests.
   */
  async request(
    op: ClientOp | (string & Record<never, never>),
    payload: Record<string, unknown> | null,
    options: RequestOptions & { expects?: string } = {},
  ): Promise<Envelope<unknown>> {
    const known = (CLIENT_OPS as Record<string, string | null>)[op];
    return this.call(op, payload, { ...options, expects: options.expects ?? known ?? undefined }, (frame) => frame);
  }

  /** Sends a frame exactly as given (no first-frame extras): for diagnostics and protocol tests. */
  sendRaw(data: string | Uint8Array): void {
    const conn = this.conn;
    if (!conn) throw new PtyWsError('NOT_CONNECTED', 'not connected', { retryable: true });
    if (typeof data === 'string') conn.sendText(data);
    else conn.sendBinary(data);
  }

  // ---- sending ---------------------------------------------------------------------------------

  /** Waits (within the timeout) for the client to be open, then sends and tracks a request. */
  private async call<T>(
    op: string,
    payload: unknown,
    options: RequestOptions & { expects?: string },
    map: (frame: Envelope<unknown>) => T,
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.opts.requestTimeoutMs;
    const started = Date.now();
    await this.whenOpen(timeoutMs);
    const expects =
      'expects' in options ? options.expects : ((CLIENT_OPS as Record<string, string | null>)[op] ?? undefined);
    return this.send(op, payload, remaining(timeoutMs, started), options.replayFrom, expects, map);
  }

  /** Sends a tracked request on the current connection, without waiting for `open`. */
  private send<T>(
    op: string,
    payload: unknown,
    timeoutMs: number,
    replayFrom: number | undefined,
    expects: string | undefined,
    map?: (frame: Envelope<unknown>) => T,
  ): Promise<T> {
    const conn = this.conn;
    if (!conn)
      return Promise.reject(
        new PtyWsError('NOT_CONNECTED', `cannot send ${op}: not connected`, { op, retryable: true }),
      );
    const frame = clientFrame(op, payload, replayFrom === undefined ? {} : { replay_from: replayFrom });
    const result = this.requests.track(frame.id, op, timeoutMs, expects, map);
    try {
      conn.send(frame);
    } catch (err) {
      this.requests.reject(frame.id, asPtyWsError(err));
    }
    return result;
  }

  /** A PTY verb answered by the next RoleAssigned or Keyframe, or failed by an Error with its id. */
  private async joinedRequest<T>(
    op: ClientOp,
    payload: unknown,
    answer: 'role' | 'keyframe',
    options: RequestOptions,
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.opts.requestTimeoutMs;
    const started = Date.now();
    await this.whenOpen(timeoutMs);
    if (!this.pty.joined) throw new PtyWsError('INVALID_STATE', `${op} needs a joined session`, { op });
    const conn = this.conn;
    if (!conn) throw new PtyWsError('NOT_CONNECTED', `cannot send ${op}: not connected`, { op, retryable: true });
    const frame = clientFrame(op, payload);
    const result = this.requests.track<T>(frame.id, op, remaining(timeoutMs, started));
    if (answer === 'role') this.pty.awaitRole(frame.id);
    else this.pty.awaitKeyframe(frame.id);
    try {
      conn.send(frame);
    } catch (err) {
      this.requests.reject(frame.id, asPtyWsError(err));
    }
    return result;
  }

  private sendJoin(request: JoinOptions, replayFrom: number | undefined, timeoutMs: number): Promise<RoleEvent> {
    const conn = this.conn;
    if (!conn)
      return Promise.reject(new PtyWsError('NOT_CONNECTED', 'cannot join: not connected', { retryable: true }));
    const frame = clientFrame(
      'pty.join_session',
      joinPayload(request),
      replayFrom === undefined ? {} : { replay_from: replayFrom },
    );
    const result = this.requests.track<RoleEvent>(frame.id, 'pty.join_session', timeoutMs);
    this.pty.beginJoin(frame.id, replayFrom);
    const clear = (): void => this.pty.endJoin(frame.id);
    result.then(clear, clear);
    try {
      conn.send(frame);
    } catch (err) {
      this.requests.reject(frame.id, asPtyWsError(err));
    }
    return result;
  }

  private subscribeRequest(stream: TaskStream, replayFrom: number | undefined, timeoutMs: number): Promise<void> {
    return this.send(
      'SubscribeToTask',
      { task_id: stream.taskId },
      timeoutMs,
      replayFrom,
      'SubscribeToTask.Accepted',
      (frame) => {
        const current = payloadRecord(frame)['current_sequence'];
        if (typeof current === 'number') stream.currentSequence = current;
      },
    );
  }

  private streamFor(taskId: string): TaskStream {
    const existing = this.tasks.get(taskId);
    if (existing && !existing.ended) return existing;
    const stream = new TaskStream(taskId, (id) => this.unsubscribe(id));
    this.tasks.add(stream);
    return stream;
  }

  // ---- connection management -------------------------------------------------------------------

  /**
   * One connection attempt, opened once more at once if the server dropped the socket right after
   * accepting it: the uWS build the edge runs on does so to about one attach in a thousand in
   * cluster mode (ARCHITECTURE.md, "Known defect: dropped attaches"). A second drop is reported.
   */
  private async openConnection(): Promise<BindingHelloPayload> {
    try {
      return await this.openConnectionOnce();
    } catch (err) {
      if (!this.lastAttemptDropped || this.stopping) throw err;
      return this.openConnectionOnce();
    }
  }

  private async openConnectionOnce(): Promise<BindingHelloPayload> {
    this.lastAttemptDropped = false;
    const conn: Connection = new Connection(
      {
        url: this.opts.url,
        protocols: this.opts.protocols,
        expectedProtocol: this.opts.expectedProtocol,
        headers: this.opts.headers,
        WebSocket: this.opts.WebSocket,
        helloTimeoutMs: this.opts.connectTimeoutMs,
        firstFrameExtras: () => ({
          extensions: [EXTENSION_URI, ...this.opts.extensions.filter((e) => e !== EXTENSION_URI)],
          ...(this.serviceParameters ? { service_parameters: this.serviceParameters } : {}),
        }),
      },
      {
        frame: (f) => this.conn === conn && this.onFrame(f),
        output: (o) => this.conn === conn && this.onBinaryOutput(o),
        protocolError: (e) => this.conn === conn && this.emit('error', e),
        close: (info) => this.conn === conn && this.onConnectionLost(info),
      },
    );
    this.conn = conn;
    let hello: BindingHelloPayload;
    try {
      hello = await conn.ready;
    } catch (err) {
      if (this.conn === conn) this.conn = undefined;
      this.lastAttemptDropped = conn.droppedAfterUpgrade;
      throw err;
    }
    if (this.stopping || this.conn !== conn) {
      conn.close(1000, 'client closed');
      throw new PtyWsError('NOT_CONNECTED', 'client closed while connecting');
    }
    this._hello = hello;
    this.emit('hello', hello);
    return hello;
  }

  private onConnectionLost(info: CloseInfo): void {
    this.conn = undefined;
    this.lastClose = info;
    this.dropConnectionState(info.code);
    const willReconnect = !this.stopping && !this.sessionOver && !info.fatal && this.opts.reconnect !== undefined;
    const event = { code: info.code, reason: info.reason, willReconnect, ...(info.fatal ? { error: info.fatal } : {}) };
    this.emit('disconnect', event);
    // A running reconnect loop owns the decision for connections it opened.
    if (this._state === 'reconnecting' || this._state === 'closed') return;
    if (willReconnect) {
      this.setState('reconnecting');
      void this.reconnectLoop();
      return;
    }
    if (this.stopping || this.sessionOver) return this.finish();
    const error =
      info.fatal ??
      new PtyWsError('CONNECTION_CLOSED', `connection closed (${info.code}${info.reason ? ` ${info.reason}` : ''})`, {
        closeCode: info.code,
        retryable: true,
      });
    this.emit('error', error);
    this.finish(error);
  }

  /**
   * Reconnects with backoff. Each attempt: new WebSocket → `binding_hello` → `reset` event → re-join
   * with `replay_from: lastSequence` → resubscribe task streams. Non-retryable failures (auth, not
   * found, permission) stop it; so do leave()/close() and the end of the session.
   */
  private async reconnectLoop(): Promise<void> {
    const r = this.opts.reconnect;
    if (!r) return;
    const replayFrom = this._lastSequence;
    for (let attempt = 1; attempt <= r.maxAttempts; attempt++) {
      const delayMs = backoffDelay(attempt, r);
      this.emit('reconnecting', { attempt, delayMs });
      await this.pause(delayMs);
      if (this.halted()) return;
      this.lastClose = undefined;
      try {
        await this.openConnection();
        const rejoin = this.joinRequest;
        if (rejoin) {
          this.emit('reset', { replayFrom });
          await this.sendJoin(this.rejoinRequest(rejoin), replayFrom, this.opts.requestTimeoutMs);
          this.unsentSize = undefined;
        }
        await this.resubscribeTasks(replayFrom);
        this.setState('open');
        return;
      } catch (err) {
        if (this.halted()) return;
        // Re-read: the close handler may have set it while we awaited (TS narrowed it to undefined).
        const lastClose = this.lastClose as CloseInfo | undefined;
        const error = lastClose?.fatal ?? asPtyWsError(err);
        if (!error.retryable) {
          this.emit('error', error);
          return this.finish(error);
        }
        this.conn?.close(1000, 'reconnect attempt failed');
        this.conn = undefined;
      }
    }
    const error = new PtyWsError('RECONNECT_FAILED', `gave up reconnecting after ${r.maxAttempts} attempts`, {
      retryable: true,
    });
    this.emit('error', error);
    this.finish(error);
  }

  /**
   * The join sent after a reconnect: the role held before, and no geometry from the first join —
   * a join's size applies when its client is the only controller, and the first join's size may
   * long be out of date (the session was resized since, by us or others). Only a size resize()
   * could not send while we were away goes with it.
   */
  private rejoinRequest(first: JoinOptions): JoinOptions {
    const { cols: _cols, rows: _rows, terminal_size: _size, ...rest } = first;
    const role = this.pty.role?.role ?? first.role;
    return {
      ...rest,
      ...(role ? { role } : {}),
      ...(this.unsentSize ? { cols: this.unsentSize.cols, rows: this.unsentSize.rows } : {}),
    };
  }

  private async resubscribeTasks(replayFrom: number): Promise<void> {
    for (const stream of this.tasks.active()) {
      try {
        await this.subscribeRequest(stream, replayFrom, this.opts.requestTimeoutMs);
      } catch (err) {
        if (!isPtyWsError(err)) throw err;
        if (err.code === 'REPLAY_OUT_OF_RANGE') {
          this.emit('replayLost', { replayFrom, taskId: stream.taskId, error: err });
          await this.subscribeRequest(stream, undefined, this.opts.requestTimeoutMs);
        } else if (err.code === 'TASK_NOT_FOUND') {
          stream.fail(err);
          this.tasks.removeIf(stream);
        } else {
          throw err;
        }
      }
    }
  }

  /** True when the loop must stop; finishes the client if the session ended meanwhile. */
  private halted(): boolean {
    if (this._state === 'closed' || this.stopping) return true;
    if (this.sessionOver) {
      this.finish();
      return true;
    }
    return false;
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.pauseDone = resolve;
      this.pauseTimer = setTimer(() => this.cancelPause(), ms);
    });
  }

  private cancelPause(): void {
    clearTimer(this.pauseTimer);
    this.pauseTimer = undefined;
    const done = this.pauseDone;
    this.pauseDone = undefined;
    done?.();
  }

  /** Per-connection state that does not survive a close. */
  private dropConnectionState(closeCode: number): void {
    this.pty.dropConnection();
    const over = this.pty.processExited;
    this.requests.rejectAll((id, op) =>
      over
        ? new PtyWsError('SESSION_CLOSED', `the session has closed (before ${op} completed)`, {
            requestId: id,
            op,
            closeCode,
            retryable: false,
          })
        : new PtyWsError('CONNECTION_CLOSED', `connection closed before ${op} completed`, {
            requestId: id,
            op,
            closeCode,
            retryable: true,
          }),
    );
  }

  /** Ends the client: state `closed`, streams ended (or failed with `error`), waiters rejected. */
  private finish(error?: PtyWsError): void {
    if (this._state === 'closed') return;
    this.cancelPause();
    const conn = this.conn;
    this.conn = undefined;
    conn?.close(1000, 'client closed');
    this.dropConnectionState(1000);
    this.joinRequest = undefined;
    if (error) this.tasks.failAll(error);
    else this.tasks.endAll();
    this.gate.fail(error ?? new PtyWsError('NOT_CONNECTED', 'client closed'));
    this.setState('closed');
  }

  private whenOpen(timeoutMs: number): Promise<void> {
    if (this._state === 'open') return Promise.resolve();
    if (this._state === 'idle' || this._state === 'closed') {
      return Promise.reject(new PtyWsError('NOT_CONNECTED', `client is ${this._state}; call connect() first`));
    }
    return this.gate.wait(timeoutMs);
  }

  private setState(state: ConnectionState): void {
    const previous = this._state;
    if (previous === state) return;
    this._state = state;
    if (state === 'open') this.gate.open();
    this.emit('state', { state, previous });
  }

  // ---- inbound frames --------------------------------------------------------------------------

  private onFrame(frame: ServerFrame): void {
    if (frame.sequence !== undefined && frame.sequence > this._lastSequence) this._lastSequence = frame.sequence;
    if (frame.op === 'Error') return this.onErrorFrame(frame);
    if (this.requests.settleFromFrame(frame)) return;
    switch (frame.op) {
      case 'pty.session_frame':
        return this.pty.sessionFrame(payloadRecord(frame), frame.sequence ?? this._lastSequence);
      case 'TaskStatusUpdate':
        return this.onTaskUpdate(frame);
      case 'binding_goodbye':
        return this.onGoodbye(frame);
      default:
        // Late responses (after a timeout) and ops added by later 1.x versions are ignored.
        return;
    }
  }

  private onBinaryOutput(output: DecodedOutput): void {
    if (output.sequence > this._lastSequence) this._lastSequence = output.sequence;
    this.pty.output(output.data, output.sequence, output.stream);
  }

  private onErrorFrame(frame: ServerFrame): void {
    const pending = this.requests.has(frame.id);
    const error = PtyWsError.fromPayload(frame.payload, frame.id || undefined, this.requests.opOf(frame.id));
    if (this.pty.absorbReplayError(error, frame.id, pending, this._lastSequence)) return;
    if (pending) return this.requests.reject(frame.id, error);
    this.emit('error', error);
  }

  private onTaskUpdate(frame: ServerFrame): void {
    const p = payloadRecord(frame);
    const task = p['task'];
    if (typeof task !== 'object' || task === null) {
      return this.emit('error', new PtyWsError('PROTOCOL_ERROR', 'TaskStatusUpdate without a task'));
    }
    const t = task as Task;
    const delta = (typeof p['delta'] === 'object' && p['delta'] !== null ? p['delta'] : {}) as TaskStatusUpdateEvent;
    const taskId = typeof delta.task_id === 'string' && delta.task_id ? delta.task_id : t.id;
    const update: TaskUpdate = {
      taskId,
      task: t,
      delta,
      sequence: frame.sequence ?? this._lastSequence,
      final: isFinalUpdate(t, delta),
    };
    const stream = this.tasks.get(taskId);
    // A stream drops replayed duplicates; the global event must not repeat them either.
    if (stream && !stream.push(update)) return;
    this.emit('taskUpdate', update);
  }

  private onGoodbye(frame: ServerFrame): void {
    const reason = payloadRecord(frame)['reason'];
    const r = typeof reason === 'string' ? reason : 'other';
    if (FINAL_GOODBYES.has(r)) this.goodbyeFinal = true;
    this.emit('goodbye', { reason: r });
  }
}

function asPtyWsError(err: unknown): PtyWsError {
  if (isPtyWsError(err)) return err;
  return new PtyWsError('INTERNAL', err instanceof Error ? err.message : String(err), { cause: err });
}

function remaining(timeoutMs: number, started: number): number {
  return Math.max(1, timeoutMs - (Date.now() - started));
}

function isDimension(n: number, min: number): boolean {
  return Number.isInteger(n) && n >= min && n <= MAX_DIMENSION;
}

function taskOf(frame: Envelope<unknown>): Task {
  const task = payloadRecord(frame)['task'];
  if (typeof task !== 'object' || task === null) throw new Error(`${frame.op} without a task`);
  return task as Task;
}

/** The join payload: only the fields the extension and binding §5.1.1 define. */
function joinPayload(o: JoinOptions): JoinSessionPayload {
  const p: JoinSessionPayload = {};
  if (o.role !== undefined) p.role = o.role;
  if (o.cols !== undefined) p.cols = o.cols;
  if (o.rows !== undefined) p.rows = o.rows;
  if (o.label !== undefined) p.client_label = o.label;
  const host = [
    'session_backend',
    'backend',
    'session_class',
    'argv',
    'command',
    'cwd',
    'working_dir',
    'env',
    'terminal_size',
  ] as const;
  for (const key of host) {
    if (o[key] !== undefined) (p as Record<string, unknown>)[key] = o[key];
  }
  return p;
}
