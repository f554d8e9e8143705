import { newId } from '@pty-ws/protocol';
import type { PushConfigRecord, PushConfigStore, TaskStore } from '@pty-ws/ports';
import { A2aError } from './a2a-error';
import type {
  CallContext,
  ListTaskPushNotificationConfigsParams,
  ListTaskPushNotificationConfigsResult,
  PushNotificationConfigRef,
  TaskPushNotificationConfig,
} from './a2a-operations';
import { checkCall, requireControl, requireObserve, visibleTask } from './access';
import { guard } from './guard';
import { redactUrl } from './push/redact-url';

export interface PushConfigOpsDeps {
  tasks: TaskStore;
  /** Absent: the push notification operations answer PushNotificationNotSupported. */
  pushConfigs?: PushConfigStore;
  /** Configs per task; default 10 (each one is a webhook call per update). */
  maxPushConfigsPerTask?: number;
}

/** The A2A push notification config operations (and the inline config of a SendMessage). */
export class PushConfigOps {
  constructor(private readonly deps: PushConfigOpsDeps) {}

  set(params: TaskPushNotificationConfig, ctx: CallContext): Promise<TaskPushNotificationConfig> {
    return guard(async () => {
      checkCall(ctx);
      requireControl(ctx, 'configure push notifications');
      this.store();
      if (!params.task_id) throw new A2aError('InvalidParams', "'task_id' is required");
      const rec = visibleTask(await this.deps.tasks.get(params.task_id), ctx, params.task_id);
      return view(await this.put(params, ctx, rec.sessionId));
    });
  }

  get(params: PushNotificationConfigRef, ctx: CallContext): Promise<TaskPushNotificationConfig> {
    return guard(async () => {
      checkCall(ctx);
      requireObserve(ctx);
      const store = this.store();
      visibleTask(await this.deps.tasks.get(params.task_id), ctx, params.task_id);
      const rec = await store.get(params.task_id, params.id);
      if (!rec) {
        throw new A2aError('TaskNotFound', `push notification config ${params.id} of task ${params.task_id} not found`);
      }
      return view(rec);
    });
  }

  list(
    params: ListTaskPushNotificationConfigsParams,
    ctx: CallContext,
  ): Promise<ListTaskPushNotificationConfigsResult> {
    return guard(async () => {
      checkCall(ctx);
      requireObserve(ctx);
      const store = this.store();
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

  delete(params: PushNotificationConfigRef, ctx: CallContext): Promise<void> {
    return guard(async () => {
      checkCall(ctx);
      requireControl(ctx, 'configure push notifications');
      const store = this.store();
      const rec = visibleTask(await this.deps.tasks.get(params.task_id), ctx, params.task_id);
      await store.delete(params.task_id, params.id);
      ctx.audit?.({
        type: 'push_config_delete',
        sessionId: rec.sessionId,
        detail: { task_id: params.task_id, config_id: params.id },
      });
    });
  }

  /** The store, or PushNotificationNotSupported when this server has none. */
  store(): PushConfigStore {
    if (!this.deps.pushConfigs) {
      throw new A2aError('PushNotificationNotSupported', 'push notifications are not configured on this server');
    }
    return this.deps.pushConfigs;
  }

  /** Stores the config of a task the caller may see (in `sessionId`), within the per-task cap. */
  async put(config: TaskPushNotificationConfig, ctx: CallContext, sessionId: string): Promise<PushConfigRecord> {
    const store = this.store();
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
