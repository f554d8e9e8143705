import type { Task, TaskStatusUpdateEvent } from '@pty-ws/protocol';
import { FINAL_UPDATE_STATES } from '@pty-ws/protocol';
import { Emitter } from './emitter';
import type { PtyWsError } from './errors';

/** One `TaskStatusUpdate` frame (binding §4.2). */
export interface TaskUpdate {
  taskId: string;
  task: Task;
  delta: TaskStatusUpdateEvent;
  sequence: number;
  /** The last update for this task: `delta.final`, or a state after which nothing more is sent. */
  final: boolean;
}

export interface TaskStreamEvents {
  update: TaskUpdate;
  /** The stream finished: final update, unsubscribe, or the client was closed on purpose. */
  end: TaskUpdate | undefined;
  /** The stream cannot continue (task gone, connection lost for good). */
  error: PtyWsError;
}

type Outcome = { kind: 'open' } | { kind: 'ended' } | { kind: 'failed'; error: PtyWsError };

/**
 * The updates of one task, as events and as an async iterable. Every iterator replays the updates
 * received since the stream was created, so creating it late loses nothing. It survives reconnects
 * (the client resubscribes with `replay_from`) and drops duplicates by sequence.
 */
export class TaskStream extends Emitter<TaskStreamEvents> implements AsyncIterable<TaskUpdate> {
  /** From `SubscribeToTask.Accepted` (binding §4.6); undefined for SendStreamingMessage streams. */
  currentSequence: number | undefined;
  private readonly updates: TaskUpdate[] = [];
  private lastSeq = -1;
  private outcome: Outcome = { kind: 'open' };
  private readonly wakers = new Set<() => void>();

  constructor(
    readonly taskId: string,
    private readonly unsubscribeFn: (taskId: string) => Promise<void>,
  ) {
    super();
  }

  get ended(): boolean {
    return this.outcome.kind !== 'open';
  }

  get lastUpdate(): TaskUpdate | undefined {
    return this.updates[this.updates.length - 1];
  }

  /** Resolves with the final update (undefined when ended without one); rejects when the stream failed. */
  done(): Promise<TaskUpdate | undefined> {
    if (this.outcome.kind === 'ended') return Promise.resolve(this.finalUpdate());
    if (this.outcome.kind === 'failed') return Promise.reject(this.outcome.error);
    return new Promise((resolve, reject) => {
      this.once('end', resolve);
      this.once('error', reject);
    });
  }

  /** Stops the server-side subscription and ends the stream. */
  unsubscribe(): Promise<void> {
    return this.unsubscribeFn(this.taskId);
  }

  /** @internal Delivers an update; returns false when it was a duplicate or the stream is over. */
  push(update: TaskUpdate): boolean {
    if (this.ended || update.sequence <= this.lastSeq) return false;
    this.lastSeq = update.sequence;
    this.updates.push(update);
    this.emit('update', update);
    this.wake();
    if (update.final) this.end();
    return true;
  }

  /** @internal */
  end(): void {
    if (this.ended) return;
    this.outcome = { kind: 'ended' };
    this.emit('end', this.finalUpdate());
    this.wake();
  }

  /** @internal */
  fail(error: PtyWsError): void {
    if (this.ended) return;
    this.outcome = { kind: 'failed', error };
    this.emit('error', error);
    this.wake();
  }

  [Symbol.asyncIterator](): AsyncIterator<TaskUpdate> {
    let index = 0;
    let stopped = false;
    const next = async (): Promise<IteratorResult<TaskUpdate>> => {
      for (;;) {
        const update = this.updates[index];
        if (!stopped && update) {
          index++;
          return { value: update, done: false };
        }
        if (stopped || this.outcome.kind === 'ended') return { value: undefined, done: true };
        if (this.outcome.kind === 'failed') throw this.outcome.error;
        await new Promise<void>((resolve) => this.wakers.add(resolve));
      }
    };
    return {
      next,
      // Breaking out of `for await` stops this iterator only; unsubscribe() stops the server side.
      return: async () => {
        stopped = true;
        return { value: undefined, done: true };
      },
    };
  }

  private finalUpdate(): TaskUpdate | undefined {
    const last = this.lastUpdate;
    return last?.final ? last : undefined;
  }

  private wake(): void {
    const wakers = [...this.wakers];
    this.wakers.clear();
    for (const w of wakers) w();
  }
}

export function isFinalUpdate(task: Task, delta: TaskStatusUpdateEvent): boolean {
  return delta.final === true || FINAL_UPDATE_STATES.has(task.status?.state ?? delta.status?.state);
}

/** The task streams of one client, keyed by task id; what gets resubscribed after a reconnect. */
export class TaskRegistry {
  private readonly streams = new Map<string, TaskStream>();

  get(taskId: string): TaskStream | undefined {
    return this.streams.get(taskId);
  }

  add(stream: TaskStream): void {
    this.streams.set(stream.taskId, stream);
    stream.once('end', () => this.removeIf(stream));
    stream.once('error', () => this.removeIf(stream));
  }

  removeIf(stream: TaskStream): void {
    if (this.streams.get(stream.taskId) === stream) this.streams.delete(stream.taskId);
  }

  active(): TaskStream[] {
    return [...this.streams.values()].filter((s) => !s.ended);
  }

  /** Routes an update to its stream; false when no stream wants it. */
  route(update: TaskUpdate): boolean {
    return this.streams.get(update.taskId)?.push(update) ?? false;
  }

  endAll(): void {
    for (const s of [...this.streams.values()]) s.end();
    this.streams.clear();
  }

  failAll(error: PtyWsError): void {
    for (const s of [...this.streams.values()]) s.fail(error);
    this.streams.clear();
  }
}
