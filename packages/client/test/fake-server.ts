/**
 * A small scripted pty-ws/v1 server for the client's unit tests, speaking the protocol as the spec
 * and its README interpretations describe: upgrade checks (path, subprotocol, bearer), hello first,
 * join flush RoleAssigned → replay → MembershipChanged → Keyframe, input echoed as Output (PW1O in
 * binary mode), one gap-free sequence counter, replay windows, tasks. Every client frame is checked
 * with the protocol package's own validator; rejects are recorded in `violations`.
 */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import {
  BEARER_SUBPROTOCOL_PREFIX,
  BINDING_URI,
  BINDING_VERSION,
  CLIENT_OPS,
  decodeBase64,
  decodeInputFrame,
  encodeBase64,
  encodeOutputFrame,
  errorFrame,
  EXTENSION_URI,
  FrameRejected,
  newId,
  parseClientFrame,
  PUSH_NOTIFICATION_OPS,
  rfc3339,
  serverFrame,
  SNAPSHOT_FORMAT,
  SUBPROTOCOL_BINARY,
  SUBPROTOCOL_JSON,
  SUPPORTED_OPERATIONS,
  TERMINAL_TASK_STATES,
  type BindingErrorCode,
  type ClientFrame,
  type ClientFrameOf,
  type ClientOp,
  type Envelope,
  type PtyRole,
  type Task,
  type TaskState,
} from '@pty-ws/protocol';

export const INSTANCE_ID = 'inst-1';
export const SESSION_ID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

export interface FakeServerOptions {
  /** When set, the upgrade needs this bearer token (subprotocol or header), else HTTP 401. */
  token?: string;
  /** Delay before binding_hello. */
  helloDelayMs?: number;
  /** Send this op instead of binding_hello as the first frame. */
  firstOp?: string;
  /** Overrides the subprotocol the server echoes. */
  echoProtocol?: (offered: string[]) => string;
  /** Role a join without `role` gets (README interpretation 4). */
  defaultRole?: PtyRole;
  /** Max controllers (extension capacity downgrade). */
  maxControllers?: number;
  /**
   * Accept this many upgrades and drop each socket at once, before binding_hello: what the edge's
   * uWS build does now and then (ARCHITECTURE.md, "Known defect: dropped attaches").
   */
  dropAfterUpgrade?: number;
}

type Handler = (conn: FakeConn, frame: ClientFrame) => void;

interface LogEntry {
  frame: Envelope<Record<string, unknown>>;
  /** Only these connections see it (TaskStatusUpdate filtering, README interpretation 2). */
  taskId?: string;
}

export class FakeConn {
  readonly received: ClientFrame[] = [];
  readonly rawText: string[] = [];
  readonly binaryReceived: Uint8Array[] = [];
  readonly clientId = newId();
  role: PtyRole | undefined;
  joined = false;
  label: string | undefined;
  /** Sequence of the last log frame written to this connection (README interpretation 1). */
  lastSeq = 0;
  readonly subscriptions = new Set<string>();
  helloSentAt = 0;
  firstFrameAt = 0;
  private readonly waiters: Array<{ match: (f: ClientFrame) => boolean; resolve: (f: ClientFrame) => void }> = [];

  constructor(
    readonly ws: WebSocket,
    readonly protocol: string,
    readonly offered: string[],
    readonly bearer: string | undefined,
    readonly authorization: string | undefined,
  ) {}

  get binary(): boolean {
    return this.protocol === SUBPROTOCOL_BINARY;
  }

  send(frame: Envelope<unknown>): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  /** A frame addressed to this connection only: not logged, carries the last sequence written here. */
  reply(op: string, payload: unknown, id?: string): void {
    this.send(serverFrame(op, payload, this.lastSeq, id ? { id } : {}));
  }

  error(code: BindingErrorCode, message: string, requestId?: string): void {
    this.send(errorFrame(code, message, this.lastSeq, requestId));
  }

  sessionFrame(payload: Record<string, unknown>): void {
    this.reply('pty.session_frame', payload);
  }

  /** Resolves with the next (or an already received) client frame of `op` matching `pred`. */
  waitFor(op: string, pred: (f: ClientFrame) => boolean = () => true): Promise<ClientFrame> {
    const match = (f: ClientFrame): boolean => f.op === op && pred(f);
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** @internal */
  record(frame: ClientFrame): void {
    this.received.push(frame);
    for (const w of [...this.waiters]) {
      if (w.match(frame)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(frame);
      }
    }
  }
}

export class FakeServer {
  readonly conns: FakeConn[] = [];
  readonly violations: string[] = [];
  readonly upgrades: Array<{ status: number; protocols: string[] }> = [];
  /** The session's frame log; `seq` is the shared, gap-free counter. */
  readonly log: LogEntry[] = [];
  seq = 0;
  /** Frames with sequence ≤ this were evicted: replay_from below it is out of range. */
  evictedThrough = 0;
  screen = '';
  cols = 80;
  rows = 24;
  readonly tasks = new Map<string, Task>();
  /** When false, SendStreamingMessage only accepts; the test drives updates with taskUpdate(). */
  autoCompleteStreams = true;
  private readonly overrides = new Map<string, Handler>();
  private readonly connWaiters: Array<(c: FakeConn) => void> = [];
  private dropped = 0;

  private constructor(
    private readonly wss: WebSocketServer,
    readonly options: FakeServerOptions,
  ) {}

  static start(options: FakeServerOptions = {}): Promise<FakeServer> {
    return new Promise((resolve) => {
      let server: FakeServer;
      const wss = new WebSocketServer({
        port: 0,
        host: '127.0.0.1',
        verifyClient: (info, cb) => {
          const status = server.check(info.req);
          server.upgrades.push({ status, protocols: offeredProtocols(info.req) });
          if (status === 101) cb(true);
          else cb(false, status);
        },
        handleProtocols: (protocols) => {
          const offered = [...protocols];
          if (server.options.echoProtocol) return server.options.echoProtocol(offered);
          return offered.find((p) => p === SUBPROTOCOL_BINARY || p === SUBPROTOCOL_JSON) ?? false;
        },
      });
      server = new FakeServer(wss, options);
      wss.on('connection', (ws, req) => server.accept(ws, req));
      wss.on('listening', () => resolve(server));
    });
  }

  get port(): number {
    return (this.wss.address() as AddressInfo).port;
  }

  url(instanceId = INSTANCE_ID, sessionId = SESSION_ID): string {
    return `ws://127.0.0.1:${this.port}/agents/${instanceId}/sessions/${sessionId}/attach`;
  }

  get baseUrl(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  /** Resolves with connection number `index` (0-based) once it exists. */
  connection(index: number): Promise<FakeConn> {
    const existing = this.conns[index];
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve) => {
      const check = (c: FakeConn): void => {
        if (this.conns.indexOf(c) === index) resolve(c);
        else this.connWaiters.push(check);
      };
      this.connWaiters.push(check);
    });
  }

  /** Replaces the default handling of a client op. */
  override<K extends ClientOp>(op: K, handler: (conn: FakeConn, frame: ClientFrameOf<K>) => void): void {
    // Looked up by the frame's own op, so the handler only ever sees frames of op K.
    this.overrides.set(op, handler as Handler);
  }

  attached(): FakeConn[] {
    return this.conns.filter((c) => c.joined && c.ws.readyState === WebSocket.OPEN);
  }

  // ---- session story (logged frames) -----------------------------------------------------------

  /** PTY output: logged, then sent to every attached connection (PW1O to binary ones). */
  output(text: string | Uint8Array): number {
    const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
    this.screen += new TextDecoder().decode(bytes);
    const frame = this.append('pty.session_frame', { kind: 'Output', stream: 'stdout', data: encodeBase64(bytes) });
    for (const c of this.attached()) {
      c.lastSeq = frame.sequence!;
      if (c.binary) c.ws.send(encodeOutputFrame(frame.sequence!, 'stdout', bytes));
      else c.send(frame);
    }
    return frame.sequence!;
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    this.broadcast(this.append('pty.session_frame', { kind: 'Resize', cols, rows }));
  }

  membership(): void {
    const ref = (c: FakeConn): Record<string, string> =>
      c.label ? { client_id: c.clientId, label: c.label } : { client_id: c.clientId };
    const members = this.attached();
    this.broadcast(
      this.append('pty.session_frame', {
        kind: 'MembershipChanged',
        controllers: members.filter((c) => c.role === 'controller').map(ref),
        observers: members.filter((c) => c.role === 'observer').map(ref),
      }),
    );
  }

  /** The process exits: Closed (logged), then binding_goodbye and close 1000 on every connection. */
  endSession(exitCode: number | null = 0): void {
    this.broadcast(this.append('pty.session_frame', { kind: 'Closed', exit_code: exitCode, reason: 'normal' }));
    for (const c of this.conns) {
      if (c.ws.readyState !== WebSocket.OPEN) continue;
      c.reply('binding_goodbye', { reason: 'session_closed' });
      c.ws.close(1000, 'session closed');
    }
  }

  taskUpdate(taskId: string, state: TaskState): void {
    const task = this.tasks.get(taskId);
    if (!task) throw new Error(`no task ${taskId}`);
    task.status = { state, timestamp: rfc3339() };
    const final = TERMINAL_TASK_STATES.has(state) || state === 'INPUT_REQUIRED';
    const frame = this.append(
      'TaskStatusUpdate',
      {
        task: structuredClone(task),
        delta: { task_id: task.id, context_id: task.context_id, status: task.status, final },
      },
      taskId,
    );
    for (const c of this.conns) {
      if (c.subscriptions.has(taskId) && c.ws.readyState === WebSocket.OPEN) {
        c.lastSeq = frame.sequence!;
        c.send(frame);
      }
    }
  }

  /** Abrupt network loss on every connection (client sees 1006). */
  dropAll(): void {
    for (const c of this.conns) c.ws.terminate();
  }

  closeAll(code: number, reason = ''): void {
    for (const c of this.conns) if (c.ws.readyState === WebSocket.OPEN) c.ws.close(code, reason);
  }

  async stop(): Promise<void> {
    for (const c of this.conns) c.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  // ---- internals -------------------------------------------------------------------------------

  private append(op: string, payload: Record<string, unknown>, taskId?: string): Envelope<Record<string, unknown>> {
    const frame = serverFrame(op, payload, ++this.seq);
    this.log.push(taskId ? { frame, taskId } : { frame });
    return frame;
  }

  private broadcast(frame: Envelope<unknown>): void {
    for (const c of this.attached()) {
      c.lastSeq = frame.sequence!;
      c.send(frame);
    }
  }

  private check(req: IncomingMessage): number {
    const m = /^\/agents\/([^/]+)\/sessions\/([^/]+)\/attach$/.exec(req.url ?? '');
    if (!m || m[2] !== SESSION_ID) return 404;
    const offered = offeredProtocols(req);
    if (offered.length > 0 && !offered.some((p) => p === SUBPROTOCOL_JSON || p === SUBPROTOCOL_BINARY)) return 400;
    if (this.options.token !== undefined) {
      const presented = bearerOf(offered) ?? /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (presented !== this.options.token) return 401;
    }
    return 101;
  }

  private accept(ws: WebSocket, req: IncomingMessage): void {
    const offered = offeredProtocols(req);
    const conn = new FakeConn(ws, ws.protocol, offered, bearerOf(offered), req.headers.authorization);
    this.conns.push(conn);
    for (const w of this.connWaiters.splice(0)) w(conn);
    if (this.dropped < (this.options.dropAfterUpgrade ?? 0)) {
      this.dropped++;
      ws.terminate();
      return;
    }
    ws.on('message', (data, isBinary) => this.onMessage(conn, data as Buffer, isBinary));
    ws.on('close', () => {
      if (conn.joined) {
        conn.joined = false;
        this.membership();
      }
    });
    const hello = (): void => {
      conn.helloSentAt = Date.now();
      if (this.options.firstOp) return conn.reply(this.options.firstOp, {});
      conn.reply('binding_hello', {
        binding_uri: BINDING_URI,
        binding_version: BINDING_VERSION,
        supported_operations: [...SUPPORTED_OPERATIONS],
        activated_extensions: [EXTENSION_URI],
        session: { session_id: SESSION_ID, current_sequence: this.seq },
        session_host: {
          supported_backends: ['native'],
          default_backend: 'native',
          supported_classes: ['direct'],
          default_class: 'direct',
          observe_supported: true,
          drive_supported: true,
          reattach_supported: true,
        },
        payload_mode: {
          binary: conn.binary,
          binary_subprotocol: SUBPROTOCOL_BINARY,
          json_subprotocol: SUBPROTOCOL_JSON,
        },
      });
    };
    if (this.options.helloDelayMs) setTimeout(hello, this.options.helloDelayMs);
    else hello();
  }

  private onMessage(conn: FakeConn, data: Buffer, isBinary: boolean): void {
    if (!conn.firstFrameAt) conn.firstFrameAt = Date.now();
    if (isBinary) {
      const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      conn.binaryReceived.push(bytes);
      const input = decodeInputFrame(bytes);
      if (!input) return conn.error('INVALID_REQUEST', 'not a PW1I frame');
      return this.input(conn, input);
    }
    const text = data.toString('utf8');
    conn.rawText.push(text);
    let frame: ClientFrame;
    try {
      frame = parseClientFrame(text);
    } catch (err) {
      if (!(err instanceof FrameRejected)) throw err;
      this.violations.push(`${err.code}: ${err.message}`);
      return conn.error(err.code, err.message, err.requestId);
    }
    conn.record(frame);
    const override = this.overrides.get(frame.op);
    if (override) return override(conn, frame);
    this.handle(conn, frame);
  }

  private input(conn: FakeConn, bytes: Uint8Array, requestId?: string): void {
    if (conn.role !== 'controller') return conn.error('PERMISSION_DENIED', 'observers cannot send input', requestId);
    this.output(bytes);
  }

  private handle(conn: FakeConn, f: ClientFrame): void {
    switch (f.op) {
      case 'pty.join_session':
        return this.join(conn, f);
      case 'pty.session_input':
        return this.input(conn, decodeBase64(f.payload.data), f.id);
      case 'pty.session_resize': {
        const { cols, rows } = f.payload;
        if (conn.role !== 'controller') return conn.error('PERMISSION_DENIED', 'observers cannot resize', f.id);
        if (cols < 20 || rows < 5) return conn.error('INVALID_REQUEST', 'below 20x5', f.id);
        return this.resize(cols, rows);
      }
      case 'pty.request_role':
        conn.role = f.payload.role;
        conn.sessionFrame({ kind: 'RoleAssigned', role: conn.role, client_id: conn.clientId });
        return this.membership();
      case 'pty.release_role':
        conn.role = 'observer';
        conn.sessionFrame({ kind: 'RoleAssigned', role: 'observer', client_id: conn.clientId });
        return this.membership();
      case 'pty.request_keyframe':
        return this.keyframe(conn);
      case 'pty.leave_session':
        conn.joined = false;
        this.membership();
        conn.sessionFrame({ kind: 'MembershipChanged', controllers: [], observers: [] });
        return conn.ws.close(1000, 'left');
      case 'SendMessage': {
        const task = this.newTask('COMPLETED');
        return conn.reply('SendMessage.Response', { task }, f.id);
      }
      case 'SendStreamingMessage': {
        const task = this.newTask('SUBMITTED');
        conn.subscriptions.add(task.id);
        conn.reply('SendStreamingMessage.Accepted', { task_id: task.id }, f.id);
        if (this.autoCompleteStreams) {
          this.taskUpdate(task.id, 'WORKING');
          this.taskUpdate(task.id, 'COMPLETED');
        }
        return;
      }
      case 'GetTask':
      case 'CancelTask': {
        const task = this.tasks.get(f.payload.task_id);
        if (!task) return conn.error('TASK_NOT_FOUND', `Task ${f.payload.task_id} not found`, f.id);
        if (f.op === 'GetTask') return conn.reply('GetTask.Response', { task }, f.id);
        if (TERMINAL_TASK_STATES.has(task.status.state))
          return conn.error('TASK_NOT_CANCELABLE', 'task is terminal', f.id);
        this.taskUpdate(task.id, 'CANCELED');
        return conn.reply('CancelTask.Response', { task }, f.id);
      }
      case 'ListTasks':
        return conn.reply('ListTasks.Response', { tasks: [...this.tasks.values()], next_page_token: '' }, f.id);
      case 'SubscribeToTask': {
        const taskId = f.payload.task_id;
        if (!this.tasks.has(taskId)) return conn.error('TASK_NOT_FOUND', `Task ${taskId} not found`, f.id);
        if (typeof f.replay_from === 'number' && f.replay_from < this.evictedThrough) {
          return conn.error('REPLAY_OUT_OF_RANGE', 'replay_from precedes retained frames', f.id);
        }
        conn.subscriptions.add(taskId);
        conn.reply('SubscribeToTask.Accepted', { current_sequence: this.seq }, f.id);
        if (typeof f.replay_from === 'number') this.replay(conn, f.replay_from, taskId);
        return;
      }
      case 'Unsubscribe':
        conn.subscriptions.delete(f.payload.task_id);
        return conn.reply('Unsubscribe.Response', {}, f.id);
      case 'UpdateServiceParameters':
        return conn.reply('UpdateServiceParameters.Response', {}, f.id);
      case 'ping':
        return conn.reply('pong', { client_ts: f.payload.client_ts, server_ts: rfc3339() }, f.id);
      default:
        if (PUSH_NOTIFICATION_OPS.has(f.op) || !(f.op in CLIENT_OPS)) {
          return conn.error('UNSUPPORTED_OPERATION', `unsupported operation '${f.op}'`, f.id);
        }
    }
  }

  /** Join flush per README interpretation 3. */
  private join(conn: FakeConn, f: ClientFrameOf<'pty.join_session'>): void {
    const p = f.payload;
    const controllers = this.attached().filter((c) => c.role === 'controller').length;
    let role: PtyRole = p.role ?? this.options.defaultRole ?? 'controller';
    let downgraded = false;
    if (role === 'controller' && controllers >= (this.options.maxControllers ?? 4)) {
      role = 'observer';
      downgraded = true;
    }
    conn.role = role;
    conn.label = p.client_label;
    if (p.cols !== undefined && p.rows !== undefined && this.seq === 0) {
      this.cols = p.cols;
      this.rows = p.rows;
    }
    conn.sessionFrame(
      downgraded
        ? { kind: 'RoleAssigned', role, client_id: conn.clientId, downgraded: true, reason: 'max_controllers' }
        : { kind: 'RoleAssigned', role, client_id: conn.clientId },
    );
    if (typeof f.replay_from === 'number') {
      if (f.replay_from < this.evictedThrough)
        conn.error('REPLAY_OUT_OF_RANGE', 'replay_from precedes retained frames', f.id);
      else this.replay(conn, f.replay_from);
    }
    conn.joined = true;
    this.membership();
    this.keyframe(conn);
  }

  /** Logged frames after `from`, as JSON (binding §3.1: replay stays JSON), filtered per interpretation 2. */
  private replay(conn: FakeConn, from: number, onlyTask?: string): void {
    for (const entry of this.log) {
      const seq = entry.frame.sequence!;
      if (seq <= from) continue;
      if (
        onlyTask !== undefined
          ? entry.taskId !== onlyTask
          : entry.taskId !== undefined && !conn.subscriptions.has(entry.taskId)
      )
        continue;
      conn.lastSeq = seq;
      conn.send(entry.frame);
    }
  }

  keyframe(conn: FakeConn): void {
    conn.sessionFrame({
      kind: 'Keyframe',
      snapshot: encodeBase64(new TextEncoder().encode(this.screen)),
      snapshot_format: SNAPSHOT_FORMAT,
      snapshot_cols: this.cols,
      snapshot_rows: this.rows,
      anchor_sequence: this.seq,
    });
  }

  private newTask(state: TaskState): Task {
    const task: Task = { id: newId(), context_id: newId(), status: { state, timestamp: rfc3339() } };
    this.tasks.set(task.id, task);
    return task;
  }
}

function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  return header
    ? header
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/** Binding §7.1: `bearer.<base64url-token>`; the server base64url-decodes it. */
function bearerOf(offered: string[]): string | undefined {
  const b = offered.find((p) => p.startsWith(BEARER_SUBPROTOCOL_PREFIX));
  return b ? Buffer.from(b.slice(BEARER_SUBPROTOCOL_PREFIX.length), 'base64url').toString('utf8') : undefined;
}
