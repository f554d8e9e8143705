import { FINAL_UPDATE_STATES, TERMINAL_TASK_STATES, type Task, type TaskState } from '@pty-ws/protocol';
import type {
  FrameLog,
  PushConfigStore,
  SendMessageRequest,
  SessionControl,
  SessionRegistry,
  TaskStore,
} from '@pty-ws/ports';
import { A2aError } from './a2a-error';
import type { ContextSessions } from './context-sessions';
import { guard } from './guard';
import { sessionOfMessage } from './message-session';
import { PushConfigOps } from './push-config-ops';
import type {
  A2aOperations,
  CallContext,
  CancelTaskParams,
  GetTaskParams,
  ListTaskPushNotificationConfigsParams,
  ListTaskPushNotificationConfigsResult,
  ListTasksParams,
  ListTasksResult,
  PushNotificationConfigRef,
  SendMessageParams,
  SendMessageResult,
  StreamEvent,
  SubscribeToTaskParams,
  TaskPushNotificationConfig,
} from './a2a-operations';
import { checkCall, requireControl, requireObserve, sessionScope, visibleTask } from './access';
import { checkMediaTypes, refuseTerminal } from './message-checks';
import { eventsOfUpdate, withHistory } from './stream-events';
import { TaskFeed } from './task-feed';

export interface A2aCoreDeps {
  /** Runs, reads and cancels tasks on the session's owner (the same calls pty-ws/v1 makes). */
  control: SessionControl;
  /** Agent-scoped reads (GetTask, ListTasks) go straight to the shared task store. */
  tasks: TaskStore;
  registry: SessionRegistry;
  /** Streams follow a task through its session's frame log (TaskStatusUpdate frames). */
  log: FrameLog;
  /** Absent: the push notification operations answer PushNotificationNotSupported. */
  pushConfigs?: PushConfigStore;
  /** Configs per task; default 10 (each one is a webhook call per update). */
  maxPushConfigsPerTask?: number;
  /**
   * Sessions created for the contexts of callers that name no session (and may create
   * sessions); absent: such a message is InvalidParams.
   */
  contexts?: ContextSessions;
}

const DEFAULT_PAGE_SIZE = 50;
const STATE_PREFIX = 'TASK_STATE_';
const KNOWN_STATES = new Set<string>([
  'SUBMITTED',
  'WORKING',
  'INPUT_REQUIRED',
  'COMPLETED',
  'CANCELED',
  'FAILED',
  'REJECTED',
  'AUTH_REQUIRED',
]);

/**
 * The A2A operations over the pty-ws ports: one implementation for every binding. Tasks run in
 * sessions through SessionControl exactly as pty-ws/v1 runs them, so a task is one record in the
 * TaskStore whichever binding created or reads it. Errors leave as A2aError.
 */
export class A2aCore implements A2aOperations {
  private readonly push: PushConfigOps;

  constructor(private readonly deps: A2aCoreDeps) {
    this.push = new PushConfigOps(deps);
  }

  // ---- messages -----------------------------------------------------------------------------

  sendMessage(params: SendMessageParams, ctx: CallContext): Promise<SendMessageResult> {
    return guard(async () => {
      const { sessionId, request } = await this.prepareSend(params, ctx);
      const cfg = params.configuration ?? {};
      const push = cfg.task_push_notification_config;
      const returnNow = cfg.return_immediately === true || cfg.blocking === false;
      let task: Task;
      if (!push && !returnNow) {
        task = await this.deps.control.sendMessage(sessionId, request);
        sent(ctx, sessionId, params, task.id);
      } else {
        // The task must exist (and its push config be stored) before it produces its first update.
        const created = await this.deps.control.createTask(sessionId, request);
        sent(ctx, sessionId, params, created.id);
        if (push) await this.push.put({ ...push, task_id: created.id }, ctx, sessionId);
        if (returnNow) {
          await this.deps.control.runTask(sessionId, created.id);
          task = (await this.deps.tasks.get(created.id))?.task ?? created;
        } else {
          const feed = new TaskFeed(this.deps.log, sessionId, created.id, ctx.signal);
          try {
            await this.deps.control.runTask(sessionId, created.id);
            task = (await finalTask(feed)) ?? (await this.deps.tasks.get(created.id))?.task ?? created;
          } finally {
            feed.close();
          }
        }
      }
      return { task: withHistory(task, cfg.history_length) };
    });
  }

  async *sendStreamingMessage(params: SendMessageParams, ctx: CallContext): AsyncGenerator<StreamEvent> {
    const { created, feed } = await guard(async () => {
      const { sessionId, request } = await this.prepareSend(params, ctx);
      const push = params.configuration?.task_push_notification_config;
      const task = await this.deps.control.createTask(sessionId, request);
      sent(ctx, sessionId, params, task.id);
      if (push) await this.push.put({ ...push, task_id: task.id }, ctx, sessionId);
      // Subscribed before the task runs: no update can slip between the snapshot and the stream.
      const taskFeed = new TaskFeed(this.deps.log, sessionId, task.id, ctx.signal);
      try {
        // Run before the first event is handed out: a caller that stops reading after the
        // snapshot must not leave the task SUBMITTED forever.
        await this.deps.control.runTask(sessionId, task.id);
      } catch (err) {
        taskFeed.close();
        throw err;
      }
      return { created: task, feed: taskFeed };
    });
    try {
      yield { task: withHistory(created, params.configuration?.history_length) };
      yield* follow(feed, undefined);
    } finally {
      feed.close();
    }
  }

  private async prepareSend(
    params: SendMessageParams,
    ctx: CallContext,
  ): Promise<{ sessionId: string; request: SendMessageRequest }> {
    checkCall(ctx);
    requireControl(ctx, 'start tasks');
    if (params.configuration?.task_push_notification_config) this.push.store();
    checkMediaTypes(params.message);
    const continued = params.message.task_id;
    if (continued !== undefined) {
      refuseTerminal(
        visibleTask(await this.deps.tasks.get(continued), ctx, continued).task,
        'takes no further messages',
      );
    }
    const { sessionId, message } = await sessionOfMessage(params, ctx, this.deps);
    return {
      sessionId,
      request: {
        message,
        ...(ctx.serviceParameters ? { serviceParameters: ctx.serviceParameters } : {}),
      },
    };
  }

  // ---- tasks --------------------------------------------------------------------------------

  getTask(params: GetTaskParams, ctx: CallContext): Promise<Task> {
    return guard(async () => {
      checkCall(ctx);
      requireObserve(ctx);
      const rec = visibleTask(await this.deps.tasks.get(params.id), ctx, params.id);
      return withHistory(rec.task, params.history_length);
    });
  }

  listTasks(params: ListTasksParams, ctx: CallContext): Promise<ListTasksResult> {
    return guard(async () => {
      checkCall(ctx);
      requireObserve(ctx);
      const scope = sessionScope(ctx);
      if (params.session_id !== undefined && scope !== undefined && params.session_id !== scope) {
        throw new A2aError('PermissionDenied', `the caller is confined to session '${scope}'`);
      }
      const sessionId = params.session_id ?? scope;
      const state = params.status === undefined ? undefined : storedState(params.status);
      const pageSize = params.page_size ?? DEFAULT_PAGE_SIZE;
      const page = await this.deps.tasks.list(
        {
          instanceId: ctx.instanceId,
          ...(sessionId !== undefined ? { sessionId } : {}),
          ...(state !== undefined ? { state } : {}),
          ...(params.context_id !== undefined ? { contextId: params.context_id } : {}),
        },
        pageSize,
        params.page_token,
      );
      const tasks = page.tasks.map((r) => {
        const task = withHistory(r.task, params.history_length);
        if (params.include_artifacts !== false || !task.artifacts) return task;
        const { artifacts: _omitted, ...rest } = task;
        return rest;
      });
      return { tasks, next_page_token: page.nextPageToken ?? '', page_size: pageSize };
    });
  }

  cancelTask(params: CancelTaskParams, ctx: CallContext): Promise<Task> {
    return guard(async () => {
      checkCall(ctx);
      requireControl(ctx, 'cancel tasks');
      const rec = visibleTask(await this.deps.tasks.get(params.id), ctx, params.id);
      if (TERMINAL_TASK_STATES.has(rec.task.status.state)) {
        throw new A2aError('TaskNotCancelable', `task ${params.id} is already ${rec.task.status.state}`);
      }
      const task = await this.deps.control.cancelTask(rec.sessionId, params.id);
      ctx.audit?.({
        type: 'task_cancel',
        sessionId: rec.sessionId,
        detail: { task_id: task.id, state: task.status.state },
      });
      return task;
    });
  }

  async *subscribeToTask(params: SubscribeToTaskParams, ctx: CallContext): AsyncGenerator<StreamEvent> {
    const start = await guard(async () => {
      checkCall(ctx);
      requireObserve(ctx);
      const rec = visibleTask(await this.deps.tasks.get(params.id), ctx, params.id);
      refuseTerminal(rec.task, 'has no updates left to subscribe to');
      if (FINAL_UPDATE_STATES.has(rec.task.status.state)) return { snapshot: rec.task };
      // Subscribe, then read the snapshot, then catch up from before the subscription: an update
      // is either in the snapshot or in the feed, and the feed drops what the snapshot covers.
      const bounds = await this.deps.log.bounds(rec.sessionId);
      const feed = new TaskFeed(this.deps.log, rec.sessionId, params.id, ctx.signal);
      try {
        const snapshot = (await this.deps.tasks.get(params.id))?.task ?? rec.task;
        await feed.catchUp(this.deps.log, rec.sessionId, bounds.lastSeq);
        return { snapshot, feed };
      } catch (err) {
        feed.close();
        throw err;
      }
    });
    const { snapshot, feed } = start;
    try {
      yield { task: snapshot };
      if (feed && !FINAL_UPDATE_STATES.has(snapshot.status.state)) yield* follow(feed, snapshot);
    } finally {
      feed?.close();
    }
  }

  // ---- push notification configs ------------------------------------------------------------

  setTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    ctx: CallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.push.set(params, ctx);
  }

  getTaskPushNotificationConfig(
    params: PushNotificationConfigRef,
    ctx: CallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.push.get(params, ctx);
  }

  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsParams,
    ctx: CallContext,
  ): Promise<ListTaskPushNotificationConfigsResult> {
    return this.push.list(params, ctx);
  }

  deleteTaskPushNotificationConfig(params: PushNotificationConfigRef, ctx: CallContext): Promise<void> {
    return this.push.delete(params, ctx);
  }
}

/** A task was created for the message (before it runs: a send that then fails still happened). */
function sent(ctx: CallContext, sessionId: string, params: SendMessageParams, taskId: string): void {
  ctx.audit?.({ type: 'task_send', sessionId, detail: { task_id: taskId, message_id: params.message.message_id } });
}

/** Stream events of a feed until (and including) the task's final update. */
async function* follow(feed: TaskFeed, snapshot: Task | undefined): AsyncGenerator<StreamEvent> {
  for (;;) {
    const next = await feed.next();
    if (next.done) return;
    const update = next.value;
    if ('artifact_update' in update) {
      yield update; // output while the task runs
      continue;
    }
    if (snapshot && coveredBy(update.delta.status, snapshot.status)) continue;
    yield* eventsOfUpdate(update);
    if (update.delta.final) return;
  }
}

/** Whether the snapshot already reflects this status (same or an older transition). */
function coveredBy(status: Task['status'], snapshot: Task['status']): boolean {
  return (
    status.timestamp < snapshot.timestamp ||
    (status.timestamp === snapshot.timestamp && status.state === snapshot.state)
  );
}

async function finalTask(feed: TaskFeed): Promise<Task | undefined> {
  for (;;) {
    const next = await feed.next();
    if (next.done) return undefined;
    if ('delta' in next.value && next.value.delta.final) return next.value.task;
  }
}

/** `TASK_STATE_COMPLETED` (A2A v1.0) or `COMPLETED` (this wire) → the stored spelling. */
function storedState(status: string): TaskState {
  // TASK_STATE_WORKING (ProtoJSON), WORKING (pty-ws/v1), or working / input-required (the A2A
  // 1.0 draft text's kebab-case, which some clients send in the `status` query parameter).
  const upper = /^[a-z-]+$/.test(status) ? status.toUpperCase().replace(/-/g, '_') : status;
  const bare = upper.startsWith(STATE_PREFIX) ? upper.slice(STATE_PREFIX.length) : upper;
  if (!KNOWN_STATES.has(bare)) throw new A2aError('InvalidParams', `'status' is not a task state: ${status}`);
  return bare as TaskState;
}
