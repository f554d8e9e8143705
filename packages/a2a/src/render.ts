import { A2A_TYPES, toA2aV1, type JsonObject } from '@pty-ws/a2a-proto';
import type { Task } from '@pty-ws/protocol';
import type {
  ListTaskPushNotificationConfigsResult,
  ListTasksResult,
  SendMessageResult,
  StreamEvent,
  TaskPushNotificationConfig,
} from './a2a-operations';

/**
 * The core's results as the A2A v1.0 JSON bindings (HTTP+JSON, JSON-RPC, SSE) and push
 * notifications write them: ProtoJSON through `toA2aV1`, one mapping for every surface. The core
 * and the pty-ws/v1 WebSocket keep the binding's own snake_case JSON.
 */
export const renderA2a = {
  task: (task: Task): JsonObject => toA2aV1(A2A_TYPES.Task, task),
  event: (event: StreamEvent): JsonObject => toA2aV1(A2A_TYPES.StreamResponse, event),
  sendResult: (result: SendMessageResult): JsonObject => toA2aV1(A2A_TYPES.SendMessageResponse, result),
  list: (result: ListTasksResult): JsonObject => toA2aV1(A2A_TYPES.ListTasksResponse, result),
  pushConfig: (config: TaskPushNotificationConfig): JsonObject => toA2aV1(A2A_TYPES.TaskPushNotificationConfig, config),
  pushConfigs: (result: ListTaskPushNotificationConfigsResult): JsonObject =>
    toA2aV1(A2A_TYPES.ListTaskPushNotificationConfigsResponse, result),
};
