import { context } from '@opentelemetry/api';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import { BindingError, type PtyRole, type Task, type TerminalSize } from '@pty-ws/protocol';
import {
  systemClock,
  type Clock,
  type CreateSessionRequest,
  type Disposable,
  type JoinRequest,
  type JoinResult,
  type Keyframe,
  type ScreenFormat,
  type SessionScreen,
  type RoleChangeResult,
  type SendMessageRequest,
  type SessionControl,
  type SessionRecord,
  type SessionRegistry,
} from '@pty-ws/ports';
import {
  decodeJson,
  encodeJson,
  isNoResponders,
  rethrow,
  type ControlArgs,
  type ControlMethod,
  type ControlResult,
  type RpcReply,
} from './rpc';
import { subjects, type Subjects } from './subjects';
import { InputPipe, NotDeliveredError } from './input-pipe';
import { endSpan, startRequestSpan } from './trace-headers';

/** Keystrokes typed while a batch is in flight join the next one, up to this size. */
const INPUT_BATCH_BYTES = 64 * 1024;
/** Waits before asking again when no agent answered (an agent restarting): ~1.9 s in all. */
const NO_RESPONDERS_RETRY_MS = [100, 250, 500, 1000];

export interface EdgeClientOptions {
  prefix: string;
  /** Where the edge learns which agent owns a session. */
  registry: SessionRegistry;
  timeoutMs?: number;
  /** SendMessage blocks until the task ends: it gets the task timeout, not the control timeout. */
  taskTimeoutMs?: number;
  /**
   * The agent to create a session on when only some agents can host its backend (AgentDirectory);
   * undefined leaves it to the placement queue group (any agent of the instance).
   */
  placement?: (instanceId: string, backend: CreateSessionRequest['backend']) => string | undefined;
  /**
   * The instance's live agents able to host the backend, in the order to try them when the agent
   * a creation went to is at its PTYWS_MAX_SESSIONS_PER_AGENT cap (AgentDirectory.agentsFor).
   * Absent: that refusal is the answer.
   */
  alternatives?: (instanceId: string, backend: CreateSessionRequest['backend']) => string[];
}

/**
 * SessionControl for an edge in cluster mode: every call goes to the session's owner agent over
 * NATS request/reply; input goes to the owner's input subject through an InputPipe per client,
 * acknowledged and in order, so no keystroke is lost while the agent reconnects.
 */
export class NatsSessionControl implements SessionControl {
  private readonly s: Subjects;
  private readonly owners = new Map<string, string>();
  private readonly inputPipes = new Map<string, InputPipe>();
  private readonly timeoutMs: number;

  constructor(
    private readonly nc: NatsConnection,
    private readonly opts: EdgeClientOptions,
  ) {
    this.s = subjects(opts.prefix);
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  private async owner(sessionId: string): Promise<string> {
    const cached = this.owners.get(sessionId);
    if (cached) return cached;
    const rec = await this.opts.registry.get(sessionId);
    if (!rec) throw new BindingError('INVALID_REQUEST', `session '${sessionId}' not found`);
    this.owners.set(sessionId, rec.agentId);
    return rec.agentId;
  }

  private async call<M extends ControlMethod>(
    subject: string,
    method: M,
    args: ControlArgs[M],
    timeout = this.timeoutMs,
  ): Promise<ControlResult<M>> {
    let reply: RpcReply;
    // The request carries the active trace context in its headers (W3C traceparent).
    const { span, ctx, hdrs } = startRequestSpan(subject, method);
    for (let attempt = 0; ; attempt++) {
      try {
        const msg = await context.with(ctx, () =>
          this.nc.request(subject, encodeJson({ method, args }), { timeout, headers: hdrs }),
        );
        reply = decodeJson<RpcReply>(msg.data);
        break;
      } catch (err) {
        // No responders means nobody received the request, so asking again cannot do anything
        // twice: an agent that is (re)starting gets a moment to subscribe before the caller is told.
        const noResponders = isNoResponders(err);
        if (noResponders && attempt < NO_RESPONDERS_RETRY_MS.length) {
          await new Promise((resolve) => setTimeout(resolve, NO_RESPONDERS_RETRY_MS[attempt]));
          continue;
        }
        const what = noResponders ? 'no agent is serving it' : (err as Error).message;
        endSpan(span, { code: 'UNREACHABLE', message: what });
        throw new BindingError('INTERNAL', `session owner unreachable (${method}): ${what}`);
      }
    }
    endSpan(span, reply.ok ? undefined : reply.error);
    if (!reply.ok) rethrow(reply.error);
    // The owner answered this method: its result has the method's type (JSON over trusted NATS).
    return reply.result as ControlResult<M>;
  }

  private async toOwner<M extends ControlMethod>(
    sessionId: string,
    method: M,
    args: ControlArgs[M],
    timeout?: number,
  ): Promise<ControlResult<M>> {
    return this.call(this.s.agentControl(await this.owner(sessionId)), method, args, timeout);
  }

  /**
   * Creates on the agent placement picks (or any agent of the instance, through the placement
   * queue group). An agent at its own session cap refuses with RATE_LIMITED `sessions_agent`;
   * then every other live agent is tried in turn before that refusal reaches the caller. A
   * request naming its agent, or refused by the instance-wide cap, is not moved.
   */
  async createSession(req: CreateSessionRequest): Promise<SessionRecord> {
    const agentId = req.agentId ?? this.opts.placement?.(req.instanceId, req.backend);
    let rec: SessionRecord;
    try {
      rec = await this.createOn(agentId, req);
    } catch (err) {
      if (req.agentId !== undefined || !this.opts.alternatives || agentAtCap(err) === undefined) throw err;
      rec = await this.createElsewhere(req, err, new Set([agentAtCap(err) || agentId || '']));
    }
    this.owners.set(rec.sessionId, rec.agentId);
    return rec;
  }

  private createOn(agentId: string | undefined, req: CreateSessionRequest): Promise<SessionRecord> {
    const subject = agentId ? this.s.agentControl(agentId) : this.s.placement(req.instanceId);
    return this.call(subject, 'createSession', [req]);
  }

  private async createElsewhere(
    req: CreateSessionRequest,
    refusal: unknown,
    full: Set<string>,
  ): Promise<SessionRecord> {
    for (const other of this.opts.alternatives?.(req.instanceId, req.backend) ?? []) {
      if (full.has(other)) continue;
      try {
        return await this.createOn(other, req);
      } catch (err) {
        if (agentAtCap(err) === undefined) throw err;
        full.add(other);
      }
    }
    throw refusal; // every live agent is full
  }

  killSession(sessionId: string): Promise<void> {
    return this.toOwner(sessionId, 'killSession', [sessionId]);
  }
  join(sessionId: string, req: JoinRequest): Promise<JoinResult> {
    return this.toOwner(sessionId, 'join', [sessionId, req]);
  }
  leave(sessionId: string, clientId: string): Promise<void> {
    return this.toOwner(sessionId, 'leave', [sessionId, clientId]);
  }
  setRole(sessionId: string, clientId: string, role: PtyRole, canControl: boolean): Promise<RoleChangeResult> {
    return this.toOwner(sessionId, 'setRole', [sessionId, clientId, role, canControl]);
  }
  async releaseEdge(): Promise<void> {
    // Agents release a dead edge's members themselves when its heartbeats stop.
  }

  async input(sessionId: string, clientId: string, data: Uint8Array): Promise<void> {
    const key = `${sessionId}\u0000${clientId}`;
    let pipe = this.inputPipes.get(key);
    if (!pipe) {
      const subject = this.s.agentInput(await this.owner(sessionId), sessionId);
      pipe = this.inputPipes.get(key);
      if (!pipe) {
        const created: InputPipe = new InputPipe(
          (batch) => this.sendInput(subject, clientId, batch),
          { retryWindowMs: this.timeoutMs, maxBatchBytes: INPUT_BATCH_BYTES },
          () => {
            if (created.idle && this.inputPipes.get(key) === created) this.inputPipes.delete(key);
          },
        );
        pipe = created;
        this.inputPipes.set(key, pipe);
      }
    }
    return pipe.push(data);
  }

  private async sendInput(subject: string, clientId: string, batch: Uint8Array): Promise<void> {
    const h = headers();
    h.set('client-id', clientId);
    let reply: RpcReply;
    try {
      const msg = await this.nc.request(subject, batch, { timeout: this.timeoutMs, headers: h });
      reply = msg.data.byteLength === 0 ? { ok: true, result: null } : decodeJson<RpcReply>(msg.data);
    } catch (err) {
      if (isNoResponders(err)) throw new NotDeliveredError('no agent is subscribed');
      throw new BindingError('INTERNAL', `session owner unreachable (input): ${(err as Error).message}`);
    }
    if (!reply.ok) rethrow(reply.error);
  }

  resize(sessionId: string, clientId: string, size: TerminalSize): Promise<void> {
    return this.toOwner(sessionId, 'resize', [sessionId, clientId, size]);
  }
  keyframe(sessionId: string): Promise<Keyframe> {
    return this.toOwner(sessionId, 'keyframe', [sessionId]);
  }

  screen(sessionId: string, format: ScreenFormat): Promise<SessionScreen> {
    return this.toOwner(sessionId, 'screen', [sessionId, format]);
  }
  async pace(sessionId: string, edgeId: string, behind: boolean): Promise<boolean> {
    // An agent from before the answer replies with nothing: it is not known to hold.
    return (await this.toOwner(sessionId, 'pace', [sessionId, edgeId, behind])) === true;
  }
  sendMessage(sessionId: string, req: SendMessageRequest): Promise<Task> {
    return this.toOwner(sessionId, 'sendMessage', [sessionId, req], this.opts.taskTimeoutMs ?? 10 * 60_000);
  }
  createTask(sessionId: string, req: SendMessageRequest): Promise<Task> {
    return this.toOwner(sessionId, 'createTask', [sessionId, req]);
  }
  runTask(sessionId: string, taskId: string): Promise<void> {
    return this.toOwner(sessionId, 'runTask', [sessionId, taskId]);
  }
  getTask(sessionId: string, taskId: string, historyLength?: number): Promise<Task> {
    return this.toOwner(sessionId, 'getTask', [sessionId, taskId, historyLength]);
  }
  listTasks(sessionId: string, q: { pageSize: number; pageToken?: string; state?: string; contextId?: string }) {
    return this.toOwner(sessionId, 'listTasks', [sessionId, q]);
  }
  cancelTask(sessionId: string, taskId: string): Promise<Task> {
    return this.toOwner(sessionId, 'cancelTask', [sessionId, taskId]);
  }
}

export interface EdgeHeartbeatOptions {
  prefix: string;
  edgeId: string;
  /** Between beats (default 2 s); agents release the edge's members after their `edgeTimeoutMs`. */
  intervalMs?: number;
  clock?: Clock;
}

/** Publishes this edge's liveness so agents can release its members if it dies; `dispose` stops it. */
export function startEdgeHeartbeat(nc: NatsConnection, opts: EdgeHeartbeatOptions): Disposable {
  const subject = subjects(opts.prefix).edgeHeartbeat();
  const beat = () => nc.publish(subject, encodeJson({ edgeId: opts.edgeId }));
  beat();
  const timer = (opts.clock ?? systemClock).setInterval(beat, opts.intervalMs ?? 2000).unref();
  return { dispose: () => timer.cancel() };
}

/**
 * For a refusal by an agent's own session cap: the agent's id ('' when the refusal does not say);
 * undefined for any other error.
 */
function agentAtCap(err: unknown): string | undefined {
  if (!(err instanceof BindingError) || err.code !== 'RATE_LIMITED') return undefined;
  const data = err.data as { limit?: unknown; agent_id?: unknown } | undefined;
  if (data?.limit !== 'sessions_agent') return undefined;
  return typeof data.agent_id === 'string' ? data.agent_id : '';
}
