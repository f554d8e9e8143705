import {
  BindingError,
  TERMINAL_TASK_STATES,
  newId,
  rfc3339,
  textOf,
  type Message,
  type ServiceParameters,
  type Task,
  type TaskState,
  type TaskStatusUpdateEvent,
} from '@pty-ws/protocol';
import type { TaskArtifactUpdateEvent } from '@pty-ws/a2a';
import type { TaskRecord, TaskStore } from '@pty-ws/ports';
import { globalTracer, inSpan, startRequestSpan, type Tracer } from '@pty-ws/telemetry';
import type { Sequencer } from '../session/sequencer';
import { OutputStream } from './output-stream';
import type { RunningCommand, TaskExecutor } from './task-executor';
import { TaskTransitions, type TransitionExtra } from './task-transitions';

export interface TaskContext {
  sessionId: string;
  instanceId: string;
  cwd: string;
  env: Record<string, string>;
  sequencer: Sequencer;
  /** The session's own executor (live shell); the service's default when absent. */
  executor?: TaskExecutor;
}

/** What the history shows of an answer typed while the terminal did not echo. */
const ECHO_OFF_TEXT = '[typed with the terminal echo off]';

export interface TaskServiceOptions {
  store: TaskStore;
  /** The default (process) executor; also the live shell's fallback. */
  executor: TaskExecutor;
  /** One line per task status change, with the creating connection's trace_id (binding §9). */
  logger?: { info(obj: object, msg: string): void };
  /** Told of every status update once it is stored and logged (A2A push notifications). */
  onUpdate?: (update: { task: Task; delta: TaskStatusUpdateEvent }) => void;
  /** `task.execute` spans (the command's run and its final transition); default the global provider. */
  tracer?: Tracer;
  /** The most characters one streamed output chunk carries (default 65536). */
  chunkChars?: number;
}

/**
 * A2A task lifecycle for the sessions of one agent. Each transition is written to the TaskStore
 * (compare-and-set) and appended to the session's frame log as a TaskStatusUpdate carrying the
 * service parameters of the connection that created the task (binding §9).
 */
export class TaskService {
  private readonly running = new Map<string, RunningCommand>();
  /** The final task of each running command, for answers to its requests for input. */
  private readonly dones = new Map<string, Promise<Task>>();
  /** Who waits for a running task's next request for input. */
  private readonly inputWaiters = new Map<string, Set<(task: Task) => void>>();

  private readonly store: TaskStore;
  /** The default (process) executor; also the live shell's fallback. */
  readonly executor: TaskExecutor;
  private readonly logger: TaskServiceOptions['logger'];
  private readonly transitions: TaskTransitions;
  private readonly tracer: Tracer;
  private readonly chunkChars: number;

  constructor(opts: TaskServiceOptions) {
    this.store = opts.store;
    this.executor = opts.executor;
    this.logger = opts.logger;
    this.transitions = new TaskTransitions({
      store: opts.store,
      ...(opts.logger ? { logger: opts.logger } : {}),
      ...(opts.onUpdate ? { onUpdate: opts.onUpdate } : {}),
    });
    this.tracer = opts.tracer ?? globalTracer('@pty-ws/pty-agent');
    this.chunkChars = opts.chunkChars ?? 65_536;
  }

  /** Creates the task, starts it, and resolves with the snapshot once it reached a final state. */
  async send(ctx: TaskContext, message: Message, serviceParameters?: ServiceParameters): Promise<Task> {
    if (message.task_id) return this.answer(ctx, message);
    const started = await this.start(ctx, message, serviceParameters, undefined);
    return Promise.race([started.done, this.inputRequired(started.task.id)]);
  }

  /**
   * A message to a task that waits for input (INPUT_REQUIRED): its text is typed into the
   * command, with Enter unless `metadata.enter` is false, and the task is WORKING again. Resolves
   * as `send` does: at the task's end or its next request for input.
   */
  private async answer(ctx: TaskContext, message: Message): Promise<Task> {
    const taskId = message.task_id!;
    const { done } = await this.answerable(ctx, taskId);
    const next = this.inputRequired(taskId);
    if (!(await this.typeAnswer(ctx, message))) return done;
    return Promise.race([done, next]);
  }

  /** The running command a message to this task would answer; the reason why not otherwise. */
  private async answerable(
    ctx: TaskContext,
    taskId: string,
  ): Promise<{ rec: TaskRecord; run: RunningCommand; done: Promise<Task> }> {
    const rec = await this.store.get(taskId);
    if (!rec || rec.sessionId !== ctx.sessionId) {
      throw new BindingError('TASK_NOT_FOUND', `task ${taskId} not found in session ${ctx.sessionId}`);
    }
    const state = rec.task.status.state;
    // A2A: a task in a terminal state takes no further messages (UnsupportedOperationError),
    // on this binding as on JSON-RPC, HTTP+JSON and gRPC.
    if (TERMINAL_TASK_STATES.has(state)) {
      throw new BindingError('UNSUPPORTED_OPERATION', `task ${taskId} is ${state}: it takes no further messages`, {
        task_id: taskId,
        state,
      });
    }
    const run = this.running.get(taskId);
    const done = this.dones.get(taskId);
    if (state !== 'INPUT_REQUIRED' || !run?.input || !done) {
      throw new BindingError(
        'INVALID_REQUEST',
        `task ${taskId} is ${state}: it takes a message only while it waits for input (INPUT_REQUIRED)`,
      );
    }
    return { rec, run, done };
  }

  /** Types the answer into the waiting command; false when the command could not take it. */
  private async typeAnswer(ctx: TaskContext, message: Message): Promise<boolean> {
    const { rec, run } = await this.answerable(ctx, message.task_id!);
    // Typed with the terminal's echo off (a password): the history keeps that it was, not what.
    const parts = run.echoes?.() === false ? [{ text: ECHO_OFF_TEXT }] : message.parts;
    const userMessage: Message = { ...message, parts, role: 'ROLE_USER', context_id: rec.task.context_id };
    await this.transition(ctx, rec.task.id, 'WORKING', { history: userMessage });
    return run.input!(textOf(message), message.metadata?.['enter'] !== false);
  }

  /** Resolves with the task when it next asks for input (never, if it ends first). */
  private inputRequired(taskId: string): Promise<Task> {
    return new Promise((resolve) => {
      const waiters = this.inputWaiters.get(taskId) ?? new Set<(task: Task) => void>();
      waiters.add(resolve);
      this.inputWaiters.set(taskId, waiters);
    });
  }

  /** Creates and starts the task; resolves as soon as it is WORKING. */
  async start(
    ctx: TaskContext,
    message: Message,
    serviceParameters?: ServiceParameters,
    presetTaskId?: string,
  ): Promise<{ task: Task; done: Promise<Task> }> {
    const created = await this.create(ctx, message, serviceParameters, presetTaskId);
    return this.run(ctx, created.id);
  }

  /** Commands of created tasks that have not been run yet. */
  private readonly pending = new Map<string, string>();
  /** Answers to tasks waiting for input, accepted by `create` and typed by `run` (streaming sends). */
  private readonly answers = new Map<string, Message>();
  /** The creating connection's service parameters of created tasks, for their output frames. */
  private readonly parameters = new Map<string, ServiceParameters>();

  /**
   * Persists the task as SUBMITTED and emits nothing yet: SendStreamingMessage acknowledges a task
   * that exists before its first update can reach anyone (edges run it afterwards with `run`).
   * A message to a task waiting for input is its answer: the task is returned as it is, and `run`
   * types the answer.
   */
  async create(
    ctx: TaskContext,
    message: Message,
    serviceParameters?: ServiceParameters,
    presetTaskId?: string,
  ): Promise<Task> {
    if (message.task_id) {
      const { rec } = await this.answerable(ctx, message.task_id);
      this.answers.set(message.task_id, message);
      return rec.task;
    }
    const command = textOf(message).trim();
    if (!command) throw new BindingError('INVALID_REQUEST', 'the message has no text part to run');
    const now = Date.now();
    const taskId = presetTaskId ?? newId();
    const contextId = message.context_id ?? newId();
    const userMessage: Message = { ...message, role: 'ROLE_USER', task_id: taskId, context_id: contextId };
    const record: TaskRecord = {
      task: {
        id: taskId,
        context_id: contextId,
        status: { state: 'SUBMITTED', timestamp: rfc3339(now) },
        history: [userMessage],
      },
      sessionId: ctx.sessionId,
      instanceId: ctx.instanceId,
      createdAt: now,
      updatedAt: now,
      ...(serviceParameters ? { serviceParameters } : {}),
    };
    await this.store.insert(record);
    this.pending.set(taskId, command);
    if (serviceParameters) this.parameters.set(taskId, serviceParameters);
    return record.task;
  }

  /** Runs a created task: WORKING now, a final state when its command ends. */
  async run(ctx: TaskContext, taskId: string): Promise<{ task: Task; done: Promise<Task> }> {
    const answer = this.answers.get(taskId);
    if (answer) {
      this.answers.delete(taskId);
      const { done } = await this.answerable(ctx, taskId);
      await this.typeAnswer(ctx, answer);
      return { task: (await this.store.get(taskId))?.task ?? (await done), done };
    }
    const command = this.pending.get(taskId);
    if (command === undefined) {
      await this.get(ctx.sessionId, taskId); // TASK_NOT_FOUND for unknown ids
      throw new BindingError('INVALID_REQUEST', `task ${taskId} has already been started`);
    }
    this.pending.delete(taskId);
    const working = await this.transition(ctx, taskId, 'WORKING');
    if (working.status.state !== 'WORKING') return { task: working, done: Promise.resolve(working) }; // canceled first
    const artifactId = newId();
    // The session's log from here on holds what the command printed (live shell): the range to
    // read from the transcript API when the artifact left some of it out.
    const fromSeq = ctx.sequencer.lastSeq + 1;
    const output = this.outputStream(ctx, working, artifactId);
    const run = (ctx.executor ?? this.executor).run(command, {
      cwd: ctx.cwd,
      env: ctx.env,
      onOutput: (text) => output.push(text),
      onInputRequired: (prompt) => {
        output.flush(); // the prompt's chunk before the status that quotes it
        void this.transition(ctx, taskId, 'INPUT_REQUIRED', { statusText: prompt })
          .then((task) => {
            if (task.status.state !== 'INPUT_REQUIRED') return;
            const waiters = this.inputWaiters.get(taskId);
            this.inputWaiters.delete(taskId);
            for (const w of waiters ?? []) w(task);
          })
          .catch((err: Error) => this.logger?.info({ task_id: taskId, err: err.message }, 'input request not stored'));
      },
    });
    this.running.set(taskId, run);
    // The command outlives the request that started it: its own span, child of that request's,
    // covers the run and the final transition (whose store writes become its children).
    const span = startRequestSpan(this.tracer, 'task.execute', {
      attributes: { 'ptyws.session_id': ctx.sessionId, 'ptyws.task_id': taskId },
    });
    const done = inSpan(span, async () => {
      const result = await run.result;
      output.close(); // the last chunk is sequenced before the final status
      this.running.delete(taskId);
      this.dones.delete(taskId);
      this.inputWaiters.delete(taskId);
      this.answers.delete(taskId);
      span.setAttribute('ptyws.exit_code', result.exitCode ?? -1);
      if (result.canceled) return (await this.store.get(taskId))!.task;
      const state: TaskState = result.exitCode === 0 && !result.timedOut ? 'COMPLETED' : 'FAILED';
      span.setAttribute('ptyws.task_state', state);
      const detail = result.timedOut
        ? 'timed out'
        : result.exitCode !== null
          ? `exit code ${result.exitCode}`
          : `terminated by ${result.signal ?? 'signal'}`;
      return this.transition(ctx, taskId, state, {
        statusText: `${command}: ${detail}`,
        artifact: {
          id: artifactId,
          text: result.output,
          truncated: result.truncated,
          ...(result.truncated && result.omittedBytes !== undefined ? { omitted_bytes: result.omittedBytes } : {}),
          ...(result.truncated && result.inTranscript
            ? { transcript: { from_seq: fromSeq, to_seq: ctx.sequencer.lastSeq } }
            : {}),
        },
        metadata: { exit_code: result.exitCode, signal: result.signal, timed_out: result.timedOut },
      });
    });
    this.dones.set(taskId, done);
    return { task: working, done };
  }

  /**
   * The running command's output as TaskArtifactUpdate frames (A2A `append: true` chunks of the
   * artifact the final update completes), for this task's subscribers only.
   */
  private outputStream(ctx: TaskContext, working: Task, artifactId: string): OutputStream {
    const serviceParameters = this.parameters.get(working.id);
    this.parameters.delete(working.id);
    return new OutputStream((text, skippedChars) => {
      const event: TaskArtifactUpdateEvent = {
        task_id: working.id,
        context_id: working.context_id,
        artifact: { artifact_id: artifactId, name: 'output', parts: [{ text }] },
        append: true,
        last_chunk: false,
        ...(skippedChars > 0 ? { metadata: { skipped_chars: skippedChars } } : {}),
      };
      ctx.sequencer.event(
        'TaskArtifactUpdate',
        { artifact_update: event },
        { taskId: working.id, ...(serviceParameters ? { serviceParameters } : {}) },
      );
    }, this.chunkChars);
  }

  async get(sessionId: string, taskId: string, historyLength?: number): Promise<Task> {
    const rec = await this.store.get(taskId);
    if (!rec || rec.sessionId !== sessionId) {
      throw new BindingError('TASK_NOT_FOUND', `task ${taskId} not found in session ${sessionId}`);
    }
    const task = rec.task;
    if (historyLength !== undefined && task.history) {
      return { ...task, history: historyLength === 0 ? [] : task.history.slice(-historyLength) };
    }
    return task;
  }

  async list(
    sessionId: string,
    q: { pageSize: number; pageToken?: string; state?: string; contextId?: string },
  ): Promise<{ tasks: Task[]; nextPageToken?: string }> {
    const page = await this.store.list(
      { sessionId, ...(q.state ? { state: q.state } : {}), ...(q.contextId ? { contextId: q.contextId } : {}) },
      q.pageSize,
      q.pageToken,
    );
    return page.nextPageToken
      ? { tasks: page.tasks.map((r) => r.task), nextPageToken: page.nextPageToken }
      : { tasks: page.tasks.map((r) => r.task) };
  }

  async cancel(ctx: TaskContext, taskId: string): Promise<Task> {
    const rec = await this.store.get(taskId);
    if (!rec || rec.sessionId !== ctx.sessionId) {
      throw new BindingError('TASK_NOT_FOUND', `task ${taskId} not found in session ${ctx.sessionId}`);
    }
    if (TERMINAL_TASK_STATES.has(rec.task.status.state)) {
      throw new BindingError('TASK_NOT_CANCELABLE', `task ${taskId} is already ${rec.task.status.state}`);
    }
    this.running.get(taskId)?.cancel();
    this.pending.delete(taskId); // created but never run: nothing will run it now
    this.parameters.delete(taskId);
    return this.transition(ctx, taskId, 'CANCELED', { statusText: 'canceled by request' });
  }

  /** Cancels every running task of a session (the session closed). */
  async cancelAll(ctx: TaskContext): Promise<void> {
    const page = await this.store.list({ sessionId: ctx.sessionId }, 500);
    for (const rec of page.tasks) {
      if (!TERMINAL_TASK_STATES.has(rec.task.status.state)) await this.cancel(ctx, rec.task.id).catch(() => undefined);
    }
  }

  private transition(ctx: TaskContext, taskId: string, state: TaskState, extra?: TransitionExtra): Promise<Task> {
    return this.transitions.apply(ctx, taskId, state, extra);
  }
}
