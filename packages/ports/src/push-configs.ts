/** How the deliverer authenticates to a webhook: `Authorization: <scheme> <credentials>`. */
export interface PushAuthentication {
  scheme: string;
  credentials?: string;
}

/** One push notification config of one task (A2A TaskPushNotificationConfig), as stored. */
export interface PushConfigRecord {
  taskId: string;
  /** Unique within the task; chosen by the server when the caller gives none. */
  configId: string;
  /** The instance of the task: configs are only ever read for tasks the caller can see. */
  instanceId: string;
  url: string;
  /** Sent as `X-A2A-Notification-Token` so the receiver can check where a notification came from. */
  token?: string;
  authentication?: PushAuthentication;
  createdAt: number;
}

/**
 * Push notification configs by task. `put` creates or replaces the config with the same
 * `(taskId, configId)` (last writer wins, `createdAt` of the first write kept); `list` returns a
 * task's configs oldest first, ordered by `(createdAt, configId)`; `delete` is idempotent and says
 * whether something was removed. Credentials are stored as given: the deliverer needs them.
 */
export interface PushConfigStore {
  put(record: PushConfigRecord): Promise<void>;
  get(taskId: string, configId: string): Promise<PushConfigRecord | undefined>;
  list(taskId: string): Promise<PushConfigRecord[]>;
  delete(taskId: string, configId: string): Promise<boolean>;
}
