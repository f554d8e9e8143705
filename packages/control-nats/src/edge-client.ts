import { context } from '@opentelemetry/api';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import { BindingError, type PtyRole, type Task, type TerminalSize } from '@pty-ws/protocol';
import type {
  CreateSessionRequest,
  JoinRequest,
  JoinResult,
  Keyframe,
  RoleChangeResult,
  SendMessageRequest,
  SessionControl,
  SessionRecord,
  SessionRegistry,
} from '@pty-ws/ports';
import { decodeJson, encodeJson, isNoResponders, rethrow, type ControlMethod, type RpcReply } from './rpc';
import { subjects, type Subjects } from './subjects';
import { InputPipe, NotDeliveredError } from './input-pipe';
import { endSpan, startRequestSpan } from './trace-headers';

/** Keystrokes typed while a batch is in flight join the next one, up to this size. */
const INPUT_BATCH_BYTES = 64 * 1024;

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

  private async call<T>(subject: string, method: ControlMethod, args: unknown[], timeout = this.timeoutMs): Promise<T> {
    let reply: RpcReply;
    // The request carries the active trace context in its headers (W3C traceparent).
    const { span, ctx, hdrs } = startRequestSpan(subject, method);
    try {
      const msg = await context.with(ctx, () =>
        this.nc.request(subject, encodeJson({ method, args }), { timeout, headers: hdrs }),
      );
      reply = decodeJson<RpcReply>(msg.data);
    } catch (err) {
      const what = isNoResponders(err) ? 'no agent is serving it' : (err as Error).message;
      endSpan(span, { code: 'UNREACHABLE', message: what });
      throw new BindingError('INTERNAL', `session owner unreachable (${method}): ${what}`);
    }
    endSpan(span, reply.ok ? undefined : reply.error);
    if (!reply.ok) rethrow(reply.error);
    return reply.result as T;
  }

  private async toOwner<T>(sessionId: string, method: ControlMethod, args: unknown[], timeout?: number): Promise<T> {
    return this.call<T>(this.s.agentControl(await this.owner(sessionId)), method, args, timeout);
  }

  async createSession(req: CreateSessionRequest): Promise<SessionRecord> {
    const agentId = req.agentId ?? this.opts.placement?.(req.instanceId, req.backend);
    const subject = agentId ? this.s.agentControl(agentId) : this.s.placement(req.instanceId);
    const rec = await this.call<SessionRecord>(subject, 'createSession', [req]);
    this.owners.set(rec.sessionId, rec.agentId);
    return rec;
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
    return this.toOwner<{ tasks: Task[]; nextPageToken?: string }>(sessionId, 'listTasks', [sessionId, q]);
  }
  cancelTask(sessionId: string, taskId: string): Promise<Task> {
    return this.toOwner(sessionId, 'cancelTask', [sessionId, taskId]);
  }
}

/** Publishes this edge's liveness so agents can release its members if it dies. */
export function startEdgeHeartbeat(nc: NatsConnection, prefix: string, edgeId: string, intervalMs = 2000): () => void {
  const subject = subjects(prefix).edgeHeartbeat();
  const beat = () => nc.publish(subject, encodeJson({ edgeId }));
  beat();
  const t = setInterval(beat, intervalMs);
  t.unref();
  return () => clearInterval(t);
}
