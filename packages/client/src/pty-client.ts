import type {
  BindingHelloPayload,
  ClientOp,
  Envelope,
  ListTasksPayload,
  Message,
  PtyRole,
  ServiceParameters,
  Task,
} from '@pty-ws/protocol';
import { CLIENT_OPS, clientFrame, utf8 } from '@pty-ws/protocol';
import { remainingMs, type Clock } from './clock';
import type { CloseInfo } from './connection';
import { Emitter, type EmitFn } from './emitter';
import { asPtyWsError, PtyWsError } from './errors';
import type { ConnectionState, KeyframeEvent, MembershipEvent, PtyClientEvents, RoleEvent } from './events';
import { Inbound } from './inbound';
import { Link } from './link';
import {
  resolveOptions,
  type JoinOptions,
  type PayloadMode,
  type PtyClientOptions,
  type ResolvedOptions,
} from './options';
import { OpenGate } from './open-gate';
import { Outbox, type PingResult, type RequestOptions } from './outbound';
import { PtySession } from './pty-session';
import { JoinMemory } from './rejoin';
import { ReconnectSupervisor } from './reconnect-supervisor';
import { RequestTracker } from './requests';
import { TaskOps, type ListTasksResult } from './task-ops';
import type { TaskStream } from './tasks';
import { isTerminalSize, sendInput } from './terminal-input';

export type { ListTasksResult } from './task-ops';
export type { PingResult, RequestOptions } from './outbound';
export { INPUT_CHUNK_BYTES } from './terminal-input';

/**
 * A client for one `(instance_id, session_id)` attach endpoint: the A2A core ops as promises, the
 * pty-extensions/v1 verbs, sequence tracking and automatic reconnect with replay. What happens
 * after a close is the ReconnectSupervisor's decision (reconnect-table.ts); this class opens,
 * re-joins and tears down when it says so.
 */
export class PtyClient extends Emitter<PtyClientEvents> {
  private readonly opts: ResolvedOptions;
  private readonly clock: Clock;
  private readonly requests: RequestTracker;
  private readonly gate: OpenGate;
  private readonly pty: PtySession;
  private readonly link: Link;
  private readonly outbox: Outbox;
  private readonly taskOps: TaskOps;
  private readonly supervisor: ReconnectSupervisor;
  private serviceParameters: ServiceParameters | undefined;
  private connecting: Promise<BindingHelloPayload> | undefined;
  /** What join() asked for, re-sent (without its geometry) after a reconnect. */
  private readonly joined = new JoinMemory();
  private readonly inbound: Inbound;

  constructor(options: PtyClientOptions) {
    super();
    this.opts = resolveOptions(options);
    this.clock = this.opts.clock;
    this.gate = new OpenGate(this.clock);
    this.requests = new RequestTracker(this.clock);
    const emit: EmitFn<PtyClientEvents> = (type, event) => this.emit(type, event);
    this.pty = new PtySession(this.requests, emit);
    this.serviceParameters = options.serviceParameters;
    this.link = new Link(
      this.opts,
      this.clock,
      {
        hello: (hello) => this.emit('hello', hello),
        frame: (f) => this.inbound.frame(f),
        output: (o) => this.inbound.output(o),
        protocolError: (e) => this.emit('error', e),
        close: (info) => this.onConnectionLost(info),
      },
      () => this.supervisor.stopping,
      () => this.serviceParameters,
    );
    const whenOpen = (timeoutMs: number): Promise<void> => this.whenOpen(timeoutMs);
    const { clock, requests, pty } = this;
    const requestTimeoutMs = this.opts.requestTimeoutMs;
    this.outbox = new Outbox({ conn: () => this.link.conn, requests, pty, clock, requestTimeoutMs, whenOpen });
    this.taskOps = new TaskOps({ outbox: this.outbox, clock, requestTimeoutMs, whenOpen, emit });
    this.inbound = new Inbound(requests, pty, this.taskOps, emit);
    this.supervisor = new ReconnectSupervisor(
      {
        sessionOver: () => this.inbound.goodbyeFinal || this.pty.processExited,
        lastSequence: () => this.inbound.lastSequence,
        restore: (replayFrom) => this.restore(replayFrom),
        dropAttempt: () => this.link.drop('reconnect attempt failed'),
        teardown: (error) => this.teardown(error),
        stateChanged: (state, previous) => {
          if (state === 'open') this.gate.open();
          this.emit('state', { state, previous });
        },
        emit,
      },
      this.clock,
      this.opts.reconnect,
    );
  }

  /** Creates a client and connects it. */
  static async connect(options: PtyClientOptions): Promise<PtyClient> {
    const client = new PtyClient(options);
    await client.connect();
    return client;
  }

  // ---- state -----------------------------------------------------------------------------------

  get state(): ConnectionState {
    return this.supervisor.state;
  }
  get mode(): PayloadMode {
    return this.opts.mode;
  }
  get url(): string {
    return this.opts.url;
  }
  /** The `binding_hello` payload of the current (or last) connection. */
  get hello(): BindingHelloPayload | undefined {
    return this.link.hello;
  }
  /** Highest `sequence` received on any connection: a valid `replay_from` (README interpretation 1). */
  get lastSequence(): number {
    return this.inbound.lastSequence;
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

  // ---- lifecycle -------------------------------------------------------------------------------

  /** Opens the WebSocket and resolves with `binding_hello`; no op is sent before it (binding §5.1). */
  connect(): Promise<BindingHelloPayload> {
    const state = this.state;
    if (state === 'open' && this.link.hello) return Promise.resolve(this.link.hello);
    if (this.connecting) return this.connecting;
    if (state === 'reconnecting') {
      return this.whenOpen(this.opts.connectTimeoutMs).then(() => this.link.hello as BindingHelloPayload);
    }
    this.inbound.goodbyeFinal = false;
    this.pty.processExited = false;
    this.supervisor.connect();
    const attempt = this.link.open().then(
      (hello) => {
        this.supervisor.connected();
        return hello;
      },
      (err: unknown) => {
        const error = asPtyWsError(err);
        this.supervisor.connectFailed(error);
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
    if (this.state === 'idle' || this.state === 'closed') return;
    this.supervisor.leaving();
    if (this.pty.joined || this.pty.joining) await this.link.leave(this.opts.leaveTimeoutMs);
    this.supervisor.halt('leave');
  }

  /** Closes without leaving (the server's detach cleanup releases the role). No reconnect follows. */
  close(): void {
    if (this.state === 'idle' || this.state === 'closed') return;
    this.supervisor.halt('close');
  }

  // ---- PTY (pty-extensions/v1) -----------------------------------------------------------------

  /**
   * Sends `pty.join_session` and resolves with this connection's RoleAssigned once the join flush's
   * Keyframe arrived (extension: the Keyframe is the last frame of the flush). A REPLAY_OUT_OF_RANGE
   * error does not fail the join: it emits `replayLost` and the flush continues.
   */
  async join(options: JoinOptions = {}): Promise<RoleEvent> {
    const timeoutMs = this.opts.requestTimeoutMs;
    const started = this.clock.monotonic();
    await this.whenOpen(timeoutMs);
    if (this.pty.joined || this.pty.joining)
      throw new PtyWsError('INVALID_STATE', 'already joined (or joining) this session');
    const { replayFrom, ...request } = options;
    if (request.role === undefined && this.opts.role !== undefined) request.role = this.opts.role;
    if (request.label === undefined && this.opts.clientLabel !== undefined) request.label = this.opts.clientLabel;
    const role = await this.outbox.join(request, replayFrom, remainingMs(this.clock, timeoutMs, started));
    this.joined.remember(request);
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
    const conn = this.link.conn;
    if (this.state !== 'open' || !this.pty.joined || !conn?.isOpen) return false;
    sendInput(conn, this.opts.mode, typeof data === 'string' ? utf8(data) : data);
    return true;
  }

  /**
   * Sends `pty.session_resize`. Refuses (returns false, sends nothing) below the 20×5 floor, above
   * 1024, for non-integers, or while not joined: transient bogus sizes from a dragging window must not
   * reach the PTY (rendering rules, phase 1). Debouncing is the caller's job.
   */
  resize(cols: number, rows: number): boolean {
    if (!isTerminalSize(cols, rows)) return false;
    const conn = this.link.conn;
    if (this.state !== 'open' || !this.pty.joined || !conn?.isOpen) {
      // Remembered for the rejoin after a reconnect: the local terminal has this size now.
      this.joined.resizeUnsent(cols, rows);
      return false;
    }
    this.joined.sizeSent();
    conn.send(clientFrame('pty.session_resize', { cols, rows }));
    return true;
  }

  /** `pty.request_role`; resolves with the RoleAssigned that answers it (possibly a downgrade). */
  requestRole(role: PtyRole, options: RequestOptions = {}): Promise<RoleEvent> {
    return this.outbox.joinedRequest('pty.request_role', { role }, 'role', options);
  }

  /** `pty.release_role`: give up control; resolves with the RoleAssigned (observer). */
  releaseRole(options: RequestOptions = {}): Promise<RoleEvent> {
    return this.outbox.joinedRequest('pty.release_role', {}, 'role', options);
  }

  /** `pty.request_keyframe`; resolves with the next Keyframe. */
  requestKeyframe(options: RequestOptions = {}): Promise<KeyframeEvent> {
    return this.outbox.joinedRequest('pty.request_keyframe', {}, 'keyframe', options);
  }

  // ---- A2A core ops (binding §4) ---------------------------------------------------------------

  async sendMessage(message: Message | string, options: RequestOptions = {}): Promise<Task> {
    return this.taskOps.sendMessage(message, options);
  }

  /** Resolves once accepted, with a stream of the task's updates (events and async iterable). */
  async sendStreamingMessage(message: Message | string, options: RequestOptions = {}): Promise<TaskStream> {
    return this.taskOps.sendStreamingMessage(message, options);
  }

  async getTask(taskId: string, options: RequestOptions & { historyLength?: number } = {}): Promise<Task> {
    return this.taskOps.getTask(taskId, options);
  }

  async listTasks(
    query: { pageSize?: number; pageToken?: string | null; filter?: ListTasksPayload['filter'] } = {},
    options: RequestOptions = {},
  ): Promise<ListTasksResult> {
    return this.taskOps.listTasks(query, options);
  }

  async cancelTask(taskId: string, options: RequestOptions = {}): Promise<Task> {
    return this.taskOps.cancelTask(taskId, options);
  }

  /**
   * `SubscribeToTask`; resolves with the task's stream (shared if one exists). The stream is
   * resubscribed with `replay_from` after a reconnect until it ends.
   */
  async subscribeToTask(taskId: string, options: RequestOptions = {}): Promise<TaskStream> {
    return this.taskOps.subscribeToTask(taskId, options);
  }

  /** `Unsubscribe`; ends the task's stream. */
  async unsubscribe(taskId: string, options: RequestOptions = {}): Promise<void> {
    return this.taskOps.unsubscribe(taskId, options);
  }

  /** Replaces the connection's service parameters; later reconnects send the new ones. */
  async updateServiceParameters(params: ServiceParameters, options: RequestOptions = {}): Promise<void> {
    await this.outbox.call('UpdateServiceParameters', { service_parameters: params }, options, () => {
      this.serviceParameters = params;
    });
  }

  /** Application-level ping (binding §5.6). */
  async ping(options: RequestOptions = {}): Promise<PingResult> {
    return this.outbox.ping(options);
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
    const expects = options.expects ?? known ?? undefined;
    return this.outbox.call(op, payload, { ...options, expects }, (frame) => frame);
  }

  /** Sends a frame exactly as given (no first-frame extras): for diagnostics and protocol tests. */
  sendRaw(data: string | Uint8Array): void {
    this.link.sendRaw(data);
  }

  // ---- connection management (on the supervisor's word) ----------------------------------------

  /**
   * One reconnect attempt: new WebSocket → `binding_hello` → `reset` event → re-join with
   * `replay_from` → resubscribe task streams.
   */
  private async restore(replayFrom: number): Promise<void> {
    await this.link.open();
    const rejoin = this.joined.rejoin(this.pty.role?.role);
    if (rejoin) {
      this.emit('reset', { replayFrom });
      await this.outbox.join(rejoin, replayFrom, this.opts.requestTimeoutMs);
      this.joined.sizeSent();
    }
    await this.taskOps.resubscribe(replayFrom);
  }

  private onConnectionLost(info: CloseInfo): void {
    this.dropConnectionState(info.code);
    this.supervisor.lost(info);
  }

  /** Per-connection state that does not survive a close. */
  private dropConnectionState(closeCode: number): void {
    this.pty.dropConnection();
    this.requests.failOnClose(closeCode, this.pty.processExited);
  }

  /** Ends the client: connection closed, streams ended (or failed with `error`), waiters rejected. */
  private teardown(error: PtyWsError | undefined): void {
    this.link.drop('client closed');
    this.dropConnectionState(1000);
    this.joined.forget();
    this.taskOps.endAll(error);
    this.gate.fail(error ?? new PtyWsError('NOT_CONNECTED', 'client closed'));
  }

  private whenOpen(timeoutMs: number): Promise<void> {
    return this.gate.whenOpen(this.state, timeoutMs);
  }
}
