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
import { decodeJson, encodeJson, rethrow, type ControlMethod, type RpcReply } from './rpc';
import { subjects, type Subjects } from './subjects';

export interface EdgeClientOptions {
  prefix: string;
  /** Where the edge learns which agent owns a session. */
  registry: SessionRegistry;
  timeoutMs?: number;
  /** SendMessage blocks until the task ends: it gets the task timeout, not the control timeout. */
  taskTimeoutMs?: number;
}

/**
 * SessionControl for an edge in cluster mode: every call goes to the session's owner agent over
 * NATS request/reply; input is published (no reply) on the owner's input subject so keystrokes
 * are not held up by round trips and keep their order.
 */
export class NatsSessionControl implements SessionControl {
  private readonly s: Subjects;
  private readonly owners = new Map<string, string>();
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
    try {
      const msg = await this.nc.request(subject, encodeJson({ method, args }), { timeout });
      reply = decodeJson<RpcReply>(msg.data);
    } catch (err) {
      const what = (err as Error).name === 'NoRespondersError' ? 'no agent is serving it' : (err as Error).message;
      throw new BindingError('INTERNAL', `session owner unreachable (${method}): ${what}`);
    }
    if (!reply.ok) rethrow(reply.error);
    return reply.result as T;
  }

  private async toOwner<T>(sessionId: string, method: ControlMethod, args: unknown[], timeout?: number): Promise<T> {
    return this.call<T>(this.s.agentControl(await this.owner(sessionId)), method, args, timeout);
  }

  async createSession(req: CreateSessionRequest): Promise<SessionRecord> {
    const subject = req.agentId ? this.s.agentControl(req.agentId) : this.s.placement(req.instanceId);
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
    const h = headers();
    h.set('client-id', clientId);
    this.nc.publish(this.s.agentInput(await this.owner(sessionId), sessionId), data, { headers: h });
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
