import type { ClientOp, Envelope, JoinSessionPayload } from '@pty-ws/protocol';
import { CLIENT_OPS, clientFrame, rfc3339 } from '@pty-ws/protocol';
import { remainingMs, type Clock } from './clock';
import type { Connection } from './connection';
import { asPtyWsError, PtyWsError } from './errors';
import type { RoleEvent } from './events';
import type { JoinOptions } from './options';
import type { PtySession } from './pty-session';
import type { RequestTracker } from './requests';
import { payloadRecord } from './wire';

export interface RequestOptions {
  /** Overrides `requestTimeoutMs` for this call. */
  timeoutMs?: number;
  /** Envelope `replay_from`. */
  replayFrom?: number;
}

export interface PingResult {
  clientTs: string;
  serverTs: string;
  rttMs: number;
}

export type FrameMap<T> = (frame: Envelope<unknown>) => T;

export interface OutboxDeps {
  conn(): Connection | undefined;
  requests: RequestTracker;
  pty: PtySession;
  clock: Clock;
  requestTimeoutMs: number;
  /** Resolves once the client is open (within the timeout), rejects when it is not connecting. */
  whenOpen(timeoutMs: number): Promise<void>;
}

/** Sends tracked requests on the current connection: the A2A ops, the PTY verbs and the join. */
export class Outbox {
  constructor(private readonly d: OutboxDeps) {}

  /** Waits (within the timeout) for the client to be open, then sends and tracks a request. */
  async call<T>(
    op: string,
    payload: unknown,
    options: RequestOptions & { expects?: string },
    map: FrameMap<T>,
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.d.requestTimeoutMs;
    const started = this.d.clock.monotonic();
    await this.d.whenOpen(timeoutMs);
    const expects =
      'expects' in options ? options.expects : ((CLIENT_OPS as Record<string, string | null>)[op] ?? undefined);
    return this.send(op, payload, remainingMs(this.d.clock, timeoutMs, started), options.replayFrom, expects, map);
  }

  /** Application-level ping (binding §5.6): the round trip timed on the client's monotonic clock. */
  ping(options: RequestOptions): Promise<PingResult> {
    const clientTs = rfc3339();
    const sent = this.d.clock.monotonic();
    return this.call('ping', { client_ts: clientTs }, options, (frame) => {
      const serverTs = payloadRecord(frame)['server_ts'];
      const rttMs = this.d.clock.monotonic() - sent;
      return { clientTs, serverTs: typeof serverTs === 'string' ? serverTs : '', rttMs };
    });
  }

  /** Sends a tracked request on the current connection, without waiting for `open`. */
  send<T>(
    op: string,
    payload: unknown,
    timeoutMs: number,
    replayFrom: number | undefined,
    expects: string | undefined,
    map?: FrameMap<T>,
  ): Promise<T> {
    const conn = this.d.conn();
    if (!conn)
      return Promise.reject(
        new PtyWsError('NOT_CONNECTED', `cannot send ${op}: not connected`, { op, retryable: true }),
      );
    const frame = clientFrame(op, payload, replayFrom === undefined ? {} : { replay_from: replayFrom });
    return this.tracked(conn, frame, this.d.requests.track(frame.id, op, timeoutMs, expects, map));
  }

  /** A PTY verb answered by the next RoleAssigned or Keyframe, or failed by an Error with its id. */
  async joinedRequest<T>(
    op: ClientOp,
    payload: unknown,
    answer: 'role' | 'keyframe',
    options: RequestOptions,
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.d.requestTimeoutMs;
    const started = this.d.clock.monotonic();
    await this.d.whenOpen(timeoutMs);
    if (!this.d.pty.joined) throw new PtyWsError('INVALID_STATE', `${op} needs a joined session`, { op });
    const conn = this.d.conn();
    if (!conn) throw new PtyWsError('NOT_CONNECTED', `cannot send ${op}: not connected`, { op, retryable: true });
    const frame = clientFrame(op, payload);
    const result = this.d.requests.track<T>(frame.id, op, remainingMs(this.d.clock, timeoutMs, started));
    if (answer === 'role') this.d.pty.awaitRole(frame.id);
    else this.d.pty.awaitKeyframe(frame.id);
    return this.tracked(conn, frame, result);
  }

  /** `pty.join_session`, answered by the join flush (its RoleAssigned, resolved at the Keyframe). */
  join(request: JoinOptions, replayFrom: number | undefined, timeoutMs: number): Promise<RoleEvent> {
    const conn = this.d.conn();
    if (!conn)
      return Promise.reject(new PtyWsError('NOT_CONNECTED', 'cannot join: not connected', { retryable: true }));
    const frame = clientFrame(
      'pty.join_session',
      joinPayload(request),
      replayFrom === undefined ? {} : { replay_from: replayFrom },
    );
    const result = this.d.requests.track<RoleEvent>(frame.id, 'pty.join_session', timeoutMs);
    this.d.pty.beginJoin(frame.id, replayFrom);
    const clear = (): void => this.d.pty.endJoin(frame.id);
    result.then(clear, clear);
    return this.tracked(conn, frame, result);
  }

  /** Sends a frame whose answer `result` tracks; a send that throws fails the request at once. */
  private tracked<T>(conn: Connection, frame: Envelope<unknown>, result: Promise<T>): Promise<T> {
    try {
      conn.send(frame);
    } catch (err) {
      this.d.requests.reject(frame.id, asPtyWsError(err));
    }
    return result;
  }
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
