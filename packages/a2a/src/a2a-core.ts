import { FINAL_UPDATE_STATES, TERMINAL_TASK_STATES, newId, type Task, type TaskState } from '@pty-ws/protocol';
import { redactUrl } from './push/redact-url';
import type {
  FrameLog,
  PushConfigRecord,
  PushConfigStore,
  SendMessageRequest,
  SessionControl,
  SessionRegistry,
  TaskStore,
} from '@pty-ws/ports';
import { A2aError } from './a2a-error';
import { SESSION_ID_METADATA_KEY } from './a2a-operations';
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
import { checkCall, requireControl, requireObserve, sessionScope, usableSession, visibleTask } from './access';
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
  constructor(private readonly deps: A2aCoreDeps) {}

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
        if (push) await this.storePushConfig({ ...push, task_id: created.id }, ctx, sessionId);
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
      if (push) await this.storePushConfig({ ...push, task_id: task.id }, ctx, sessionId);
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
    if (params.configuration?.task_push_notification_config) this.pushStore();
    checkMediaTypes(params.message);
    const continued = params.message.task_id;
    if (continued !== undefined) {
      refuseTerminal(
        visibleTask(await this.deps.tasks.get(continued), ctx, continued).task,
        'takes no further messages',
      );
    }
    const sessionId = await this.sessionOf(params, ctx);
    return {
      sessionId,
      request: {
        message: params.message,
        ...(ctx.serviceParameters ? { serviceParameters: ctx.serviceParameters } : {}),
      },
    };
  }

  /**
   * Which session runs the message (docs/a2a.md, "A2A control plane"): `message.metadata.session_id`,
   * else the request's `metadata.session_id`, else the session of the task the message continues,
   * else the one session the caller is confined to. Otherwise InvalidParams.
   */
  private async sessionOf(params: SendMessageParams, ctx: CallContext): Promise<string> {
    let id = sessionIdIn(params.message.metadata) ?? sessionIdIn(params.metadata);
    if (id === undefined && params.message.task_id) {
      id = visibleTask(await this.deps.tasks.get(params.message.task_id), ctx, params.message.task_id).sessionId;
    }
    id ??= sessionScope(ctx);
    if (id === undefined) {
      throw new A2aError(
        'InvalidParams',
        'name the session to run the message in: message.metadata.session_id (see the AgentCard skill shell-task)',
      );
    }
    usableSession(await this.deps.registry.get(id), ctx, id);
    return id;
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
    return guard(async () => {
      checkCall(ctx);
      requireControl(ctx, 'configure push notifications');
      this.pushStore();
      if (!params.task_id) throw new A2aError('InvalidParams', "'task_id' is required");
      const rec = visibleTask(await this.deps.tasks.get(params.task_id), ctx, params.task_id);
      return view(await this.storePushConfig(params, ctx, rec.sessionId));
    });
  }

  getTaskPushNotificationConfig(
    params: PushNotificationConfigRef,
    ctx: CallContext,
  ): Promise<TaskPushNotificationConfig> {
    return guard(async () => {
      checkCall(ctx);
      requireObserve(ctx);
      const store = this.pushStore();
      visibleTask(await this.deps.tasks.get(params.task_id), ctx, params.task_id);
      const rec = await store.get(params.task_id, params.id);
      if (!rec) {
        throw new A2aError('TaskNotFound', `push notification config ${params.id} of task ${params.task_id} not found`);
      }
      return view(rec);
    });
  }

  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsParams,
    ctx: CallContext,
  ): Promise<ListTaskPushNotificationConfigsResult> {
    return guard(async () => {
      checkCall(ctx);
      requireObserve(ctx);
      const store = this.pushStore();
      visibleTask(await this.deps.tasks.get(params.task_id), ctx, params.task_id);
      const all = await store.list(params.task_id);
      // A task holds a handful of configs: an offset token is enough.
      const offset = params.page_token ? offsetOf(params.page_token) : 0;
      const size = params.page_size ?? 100;
      const page = all.slice(offset, offset + size);
      const next = offset + size < all.length ? Buffer.from(String(offset + size)).toString('base64url') : '';
      return { configs: page.map(view), next_page_token: next };
    });
  }

  deleteTaskPushNotificationConfig(params: PushNotificationConfigRef, ctx: CallContext): Promise<void> {
    return guard(async () => {
      checkCall(ctx);
      requireControl(ctx, 'configure push notifications');
      const store = this.pushStore();
      const rec = visibleTask(await this.deps.tasks.get(params.task_id), ctx, params.task_id);
      await store.delete(params.task_id, params.id);
      ctx.audit?.({
        type: 'push_config_delete',
        sessionId: rec.sessionId,
        detail: { task_id: params.task_id, config_id: params.id },
      });
    });
  }

  private pushStore(): PushConfigStore {
    if (!this.deps.pushConfigs) {
      throw new A2aError('PushNotificationNotSupported', 'push notifications are not configured on this server');
    }
    return this.deps.pushConfigs;
  }

  private async storePushConfig(
    config: TaskPushNotificationConfig,
    ctx: CallContext,
    sessionId: string,
  ): Promise<PushConfigRecord> {
    const store = this.pushStore();
    const configId = config.id ?? newId();
    const existing = await store.list(config.task_id);
    const max = this.deps.maxPushConfigsPerTask ?? 10;
    if (existing.length >= max && !existing.some((c) => c.configId === configId)) {
      throw new A2aError('InvalidParams', `task ${config.task_id} already has ${max} push notification configs`);
    }
    const record: PushConfigRecord = {
      taskId: config.task_id,
      configId,
      instanceId: ctx.instanceId,
      url: config.url,
      createdAt: Date.now(),
      ...(config.token !== undefined ? { token: config.token } : {}),
      ...(config.authentication ? { authentication: { ...config.authentication } } : {}),
    };
    await store.put(record);
    // Where task updates go, its secrets redacted; the token and credentials are never recorded.
    ctx.audit?.({
      type: 'push_config_set',
      sessionId,
      detail: { task_id: record.taskId, config_id: record.configId, url: redactUrl(record.url) },
    });
    return record;
  }
}

/** A task was created for the message (before it runs: a send that then fails still happened). */
function sent(ctx: CallContext, sessionId: string, params: SendMessageParams, taskId: string): void {
  ctx.audit?.({ type: 'task_send', sessionId, detail: { task_id: taskId, message_id: params.message.message_id } });
}

/** Runs `fn`, turning whatever it throws into an A2aError (BindingErrors keep their meaning). */
async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw A2aError.from(err);
  }
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

function sessionIdIn(metadata: Record<string, unknown> | undefined): string | undefined {
  const v = metadata?.[SESSION_ID_METADATA_KEY] ?? metadata?.['sessionId'];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v === '') {
    throw new A2aError('InvalidParams', "'metadata.session_id' must be a non-empty string");
  }
  return v;
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

function offsetOf(token: string): number {
  const n = Number(Buffer.from(token, 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(n) || n < 0) throw new A2aError('InvalidParams', 'invalid page token');
  return n;
}

/**
 * The config as the API shows it (observers may read configs): credentials are write-only — the
 * notification token and authentication credentials are never returned, and secrets in the URL
 * (query values, userinfo) are redacted.
 */
function view(r: PushConfigRecord): TaskPushNotificationConfig {
  return {
    task_id: r.taskId,
    id: r.configId,
    url: redactUrl(r.url),
    ...(r.authentication ? { authentication: { scheme: r.authentication.scheme } } : {}),
  };
}
