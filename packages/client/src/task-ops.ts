import type { ListTasksPayload, Message, Task, TaskStatusUpdateEvent } from '@pty-ws/protocol';
import { remainingMs, type Clock } from './clock';
import { isPtyWsError, PtyWsError } from './errors';
import type { EmitFn } from './emitter';
import type { PtyClientEvents } from './events';
import { toMessage } from './messages';
import type { FrameMap, Outbox, RequestOptions } from './outbound';
import { isFinalUpdate, TaskRegistry, TaskStream, type TaskUpdate } from './tasks';
import { payloadRecord, type ServerFrame } from './wire';

export interface ListTasksResult {
  tasks: Task[];
  nextPageToken: string | undefined;
}

export interface TaskOpsDeps {
  outbox: Outbox;
  clock: Clock;
  requestTimeoutMs: number;
  whenOpen(timeoutMs: number): Promise<void>;
  emit: EmitFn<PtyClientEvents>;
}

/**
 * The A2A task side of the client (binding §4): the core ops, the task streams they open, their
 * resubscription after a reconnect, and the routing of TaskStatusUpdate frames to them.
 */
export class TaskOps {
  private readonly tasks = new TaskRegistry();

  constructor(private readonly d: TaskOpsDeps) {}

  sendMessage(message: Message | string, options: RequestOptions): Promise<Task> {
    return this.d.outbox.call('SendMessage', { message: toMessage(message) }, options, taskOf);
  }

  sendStreamingMessage(message: Message | string, options: RequestOptions): Promise<TaskStream> {
    // The stream is created inside frame dispatch so updates sent right after the Accepted frame
    // (possibly in the same tick) already have somewhere to go.
    return this.d.outbox.call('SendStreamingMessage', { message: toMessage(message) }, options, (frame) => {
      const taskId = payloadRecord(frame)['task_id'];
      if (typeof taskId !== 'string' || !taskId) throw new Error('Accepted frame without task_id');
      return this.streamFor(taskId);
    });
  }

  getTask(taskId: string, options: RequestOptions & { historyLength?: number }): Promise<Task> {
    const payload =
      options.historyLength === undefined
        ? { task_id: taskId }
        : { task_id: taskId, history_length: options.historyLength };
    return this.d.outbox.call('GetTask', payload, options, taskOf);
  }

  listTasks(
    query: { pageSize?: number; pageToken?: string | null; filter?: ListTasksPayload['filter'] },
    options: RequestOptions,
  ): Promise<ListTasksResult> {
    const payload: ListTasksPayload = {};
    if (query.pageSize !== undefined) payload.page_size = query.pageSize;
    if (query.pageToken !== undefined) payload.page_token = query.pageToken;
    if (query.filter !== undefined) payload.filter = query.filter;
    return this.d.outbox.call('ListTasks', payload, options, (frame) => {
      const p = payloadRecord(frame);
      const token = p['next_page_token'];
      return {
        tasks: Array.isArray(p['tasks']) ? (p['tasks'] as Task[]) : [],
        nextPageToken: typeof token === 'string' && token ? token : undefined,
      };
    });
  }

  cancelTask(taskId: string, options: RequestOptions): Promise<Task> {
    return this.d.outbox.call('CancelTask', { task_id: taskId }, options, taskOf);
  }

  async subscribeToTask(taskId: string, options: RequestOptions): Promise<TaskStream> {
    const started = this.d.clock.monotonic();
    const timeoutMs = options.timeoutMs ?? this.d.requestTimeoutMs;
    await this.d.whenOpen(timeoutMs);
    const existing = this.tasks.get(taskId);
    const stream = this.streamFor(taskId);
    try {
      await this.subscribe(stream, options.replayFrom, remainingMs(this.d.clock, timeoutMs, started));
    } catch (err) {
      if (stream !== existing) this.tasks.removeIf(stream);
      throw err;
    }
    return stream;
  }

  async unsubscribe(taskId: string, options: RequestOptions): Promise<void> {
    const stream = this.tasks.get(taskId);
    if (stream) this.tasks.removeIf(stream);
    try {
      await this.d.outbox.call('Unsubscribe', { task_id: taskId }, options, () => undefined);
    } finally {
      stream?.end();
    }
  }

  /** After a reconnect: every open stream again, from `replayFrom` (from now if that was evicted). */
  async resubscribe(replayFrom: number): Promise<void> {
    for (const stream of this.tasks.active()) {
      try {
        await this.subscribe(stream, replayFrom, this.d.requestTimeoutMs);
      } catch (err) {
        if (!isPtyWsError(err)) throw err;
        if (err.code === 'REPLAY_OUT_OF_RANGE') {
          this.d.emit('replayLost', { replayFrom, taskId: stream.taskId, error: err });
          await this.subscribe(stream, undefined, this.d.requestTimeoutMs);
        } else if (err.code === 'TASK_NOT_FOUND') {
          stream.fail(err);
          this.tasks.removeIf(stream);
        } else {
          throw err;
        }
      }
    }
  }

  /** A TaskStatusUpdate frame: to its stream (if any), then as the client's `taskUpdate` event. */
  update(frame: ServerFrame, lastSequence: number): void {
    const p = payloadRecord(frame);
    const task = p['task'];
    if (typeof task !== 'object' || task === null) {
      return this.d.emit('error', new PtyWsError('PROTOCOL_ERROR', 'TaskStatusUpdate without a task'));
    }
    const t = task as Task;
    const delta = (typeof p['delta'] === 'object' && p['delta'] !== null ? p['delta'] : {}) as TaskStatusUpdateEvent;
    const taskId = typeof delta.task_id === 'string' && delta.task_id ? delta.task_id : t.id;
    const update: TaskUpdate = {
      taskId,
      task: t,
      delta,
      sequence: frame.sequence ?? lastSequence,
      final: isFinalUpdate(t, delta),
    };
    const stream = this.tasks.get(taskId);
    // A stream drops replayed duplicates; the global event must not repeat them either.
    if (stream && !stream.push(update)) return;
    this.d.emit('taskUpdate', update);
  }

  /** The client ended: streams end, or fail with the error that ended it. */
  endAll(error: PtyWsError | undefined): void {
    if (error) this.tasks.failAll(error);
    else this.tasks.endAll();
  }

  private subscribe(stream: TaskStream, replayFrom: number | undefined, timeoutMs: number): Promise<void> {
    return this.d.outbox.send(
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
    const stream = new TaskStream(taskId, (id) => this.unsubscribe(id, {}));
    this.tasks.add(stream);
    return stream;
  }
}

const taskOf: FrameMap<Task> = (frame) => {
  const task = payloadRecord(frame)['task'];
  if (typeof task !== 'object' || task === null) throw new Error(`${frame.op} without a task`);
  return task as Task;
};
