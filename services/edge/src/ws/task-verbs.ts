import { BindingError, FINAL_UPDATE_STATES, type ClientFrameOf, type Message, type Task } from '@pty-ws/protocol';
import { A2aError, normalizeRole, type A2aOperations, type CallContext } from '@pty-ws/a2a';
import { hubOf, sendLogRange, type BindingContext } from './binding-context';
import type { Conn } from './connection';
import { sendDirect, sendReply } from './frame-writer';
import { judgeReplay } from './join-flow';

/**
 * The A2A task verbs of pty-ws/v1. Reads and cancels go through the A2A core every binding shares
 * (`A2aOperations`, confined to the connection's session); starting a task makes the same
 * SessionControl calls the core makes. What is particular to this binding is streaming: a task's
 * updates are log frames the session hub sends the connections subscribed to the task, with
 * sequence numbers and replay.
 */
export class TaskVerbs {
  constructor(private readonly ctx: BindingContext) {}

  /** The connection as an A2A caller: its principal, instance and session (binding §4.4). */
  private caller(conn: Conn): CallContext {
    const { audit } = this.ctx.deps;
    return {
      principal: conn.principal,
      instanceId: conn.instanceId,
      sessionScope: conn.sessionId,
      sourceAddress: conn.remoteAddress,
      ...(conn.serviceParameters ? { serviceParameters: conn.serviceParameters } : {}),
      // The core reports the changes it made (a cancel); recorded with this connection's facts.
      ...(audit
        ? {
            audit: (e) => {
              if (e.type === 'task_send' || e.type === 'task_cancel') audit.wsTask(conn, e.type, e.detail);
            },
          }
        : {}),
    };
  }

  /** Runs a call of the A2A core; its A2aErrors become this binding's Error codes. */
  private async viaCore<T>(call: (core: A2aOperations) => Promise<T>): Promise<T> {
    const core = this.ctx.deps.a2a;
    if (!core) throw new BindingError('UNSUPPORTED_OPERATION', 'this edge was started without the A2A core');
    try {
      return await call(core);
    } catch (err) {
      throw err instanceof A2aError ? err.toBindingError() : err;
    }
  }

  private getTask(conn: Conn, taskId: string, historyLength?: number): Promise<Task> {
    const params = historyLength === undefined ? { id: taskId } : { id: taskId, history_length: historyLength };
    return this.viaCore((core) => core.getTask(params, this.caller(conn)));
  }

  async get(conn: Conn, f: ClientFrameOf<'GetTask'>): Promise<void> {
    const task = await this.getTask(conn, f.payload.task_id, f.payload.history_length);
    sendReply(conn, f.id, 'GetTask.Response', { task });
  }

  async list(conn: Conn, f: ClientFrameOf<'ListTasks'>): Promise<void> {
    const { filter, page_size: pageSize, page_token: pageToken } = f.payload;
    const page = await this.viaCore((core) =>
      core.listTasks(
        {
          ...(pageSize !== undefined ? { page_size: pageSize } : {}),
          ...(pageToken ? { page_token: pageToken } : {}),
          ...(filter?.state ? { status: filter.state } : {}),
          ...(filter?.context_id ? { context_id: filter.context_id } : {}),
        },
        this.caller(conn),
      ),
    );
    sendReply(conn, f.id, 'ListTasks.Response', { tasks: page.tasks, next_page_token: page.next_page_token || null });
  }

  async cancel(conn: Conn, f: ClientFrameOf<'CancelTask'>): Promise<void> {
    const task = await this.viaCore((core) => core.cancelTask({ id: f.payload.task_id }, this.caller(conn)));
    sendReply(conn, f.id, 'CancelTask.Response', { task });
  }

  async sendMessage(conn: Conn, f: ClientFrameOf<'SendMessage'>): Promise<void> {
    const request = this.request(conn, f);
    const task = await this.ctx.deps.control.sendMessage(conn.sessionId, request);
    this.auditSend(conn, task, request.message);
    this.ctx.log(conn).info({ task_id: task.id, state: task.status.state }, 'task finished (SendMessage)');
    sendReply(conn, f.id, 'SendMessage.Response', { task });
  }

  async sendStreamingMessage(conn: Conn, f: ClientFrameOf<'SendStreamingMessage'>): Promise<void> {
    const { control } = this.ctx.deps;
    // Create (SUBMITTED, no frames), then subscribe and acknowledge, then run: the task exists
    // before anyone hears of it, and Accepted precedes its first TaskStatusUpdate on this socket.
    const request = this.request(conn, f);
    const task = await control.createTask(conn.sessionId, request);
    this.auditSend(conn, task, request.message);
    this.addSubscription(conn, task.id);
    this.ctx.log(conn).info({ task_id: task.id }, 'task accepted (SendStreamingMessage)');
    sendReply(conn, f.id, 'SendStreamingMessage.Accepted', { task_id: task.id });
    try {
      await control.runTask(conn.sessionId, task.id);
    } catch (err) {
      this.removeSubscription(conn, task.id);
      throw err;
    }
  }

  /** Sends go to SessionControl directly (streaming needs the hub), so they are recorded here. */
  private auditSend(conn: Conn, task: Task, message: Message): void {
    this.ctx.deps.audit?.wsTask(conn, 'task_send', { task_id: task.id, message_id: message.message_id });
  }

  private request(
    conn: Conn,
    f: ClientFrameOf<'SendMessage' | 'SendStreamingMessage'>,
  ): { message: Message; serviceParameters?: Conn['serviceParameters'] } {
    const m = f.payload.message;
    // Accepts the lower-case A2A role spelling some clients send.
    const message = { ...m, role: normalizeRole(m.role) ?? m.role };
    return conn.serviceParameters ? { message, serviceParameters: conn.serviceParameters } : { message };
  }

  async subscribe(conn: Conn, f: ClientFrameOf<'SubscribeToTask'>): Promise<void> {
    const taskId = f.payload.task_id;
    const task = await this.getTask(conn, taskId);
    const hub = hubOf(this.ctx, conn);
    const replayFrom = f.replay_from ?? undefined;
    const verdict = await judgeReplay(this.ctx, conn, replayFrom);
    if (verdict?.outOfRange) throw verdict.outOfRange;
    hub.goOffline(conn);
    (conn.tasks ??= new Set()).add(taskId);
    sendReply(conn, f.id, 'SubscribeToTask.Accepted', { current_sequence: hub.head });
    if (replayFrom !== undefined) {
      if (replayFrom < conn.position) {
        // Updates older than this socket's position cannot be resent without breaking the
        // sequence order: one unlogged snapshot of the task's state stands in for them.
        const final = FINAL_UPDATE_STATES.has(task.status.state);
        // A task event like any other: it carries this connection's service parameters (binding §9).
        sendDirect(
          conn,
          'TaskStatusUpdate',
          { task, delta: { task_id: task.id, context_id: task.context_id, status: task.status, final } },
          conn.serviceParameters ? { serviceParameters: conn.serviceParameters } : {},
        );
      }
      await sendLogRange(this.ctx, conn, Math.max(replayFrom, conn.position), hub.head);
    } else {
      this.positionTaskOnly(conn);
    }
    await hub.catchUp(conn);
  }

  async unsubscribe(conn: Conn, f: ClientFrameOf<'Unsubscribe'>): Promise<void> {
    const taskId = f.payload.task_id;
    if (!conn.tasks?.has(taskId)) await this.getTask(conn, taskId); // TASK_NOT_FOUND for unknown tasks
    this.removeSubscription(conn, taskId);
    sendReply(conn, f.id, 'Unsubscribe.Response', {});
  }

  private addSubscription(conn: Conn, taskId: string): void {
    conn.flushFeed?.(); // what was delivered before goes out under the old subscriptions
    (conn.tasks ??= new Set()).add(taskId);
    if (conn.feed === 'live') return; // the hub sends it the task's updates from now on
    this.positionTaskOnly(conn);
    // At the head this completes synchronously: the socket is live before any update exists.
    void hubOf(this.ctx, conn).catchUp(conn);
  }

  /** A connection that never joined has no history to catch up on: it starts at the head. */
  private positionTaskOnly(conn: Conn): void {
    const hub = hubOf(this.ctx, conn);
    if (!conn.attached && conn.position < hub.head) conn.position = hub.head;
  }

  private removeSubscription(conn: Conn, taskId: string): void {
    conn.flushFeed?.();
    conn.tasks?.delete(taskId);
  }
}
