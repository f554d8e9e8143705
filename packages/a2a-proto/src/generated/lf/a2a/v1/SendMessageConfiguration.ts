// Original file: proto/lf/a2a/v1/a2a.proto

import type { TaskPushNotificationConfig as _lf_a2a_v1_TaskPushNotificationConfig, TaskPushNotificationConfig__Output as _lf_a2a_v1_TaskPushNotificationConfig__Output } from '../../../lf/a2a/v1/TaskPushNotificationConfig';

/**
 * Configuration of a send message request.
 */
export interface SendMessageConfiguration {
  /**
   * A list of media types the client is prepared to accept for response parts.
   * Agents SHOULD use this to tailor their output.
   */
  'accepted_output_modes'?: (string)[];
  /**
   * Configuration for the agent to send push notifications for task updates.
   * Task id should be empty when sending this configuration in a `SendMessage` request.
   */
  'task_push_notification_config'?: (_lf_a2a_v1_TaskPushNotificationConfig | null);
  /**
   * The maximum number of most recent messages from the task's history to retrieve in
   * the response. An unset value means the client does not impose any limit. A
   * value of zero is a request to not include any messages. The server MUST NOT
   * return more messages than the provided value, but MAY apply a lower limit.
   */
  'history_length'?: (number);
  /**
   * If `true`, the operation returns immediately after creating the task,
   * even if processing is still in progress.
   * If `false` (default), the operation MUST wait until the task reaches a
   * terminal (`COMPLETED`, `FAILED`, `CANCELED`, `REJECTED`) or interrupted
   * (`INPUT_REQUIRED`, `AUTH_REQUIRED`) state before returning.
   */
  'return_immediately'?: (boolean);
  '_history_length'?: "history_length";
}

/**
 * Configuration of a send message request.
 */
export interface SendMessageConfiguration__Output {
  /**
   * A list of media types the client is prepared to accept for response parts.
   * Agents SHOULD use this to tailor their output.
   */
  'accepted_output_modes'?: (string)[];
  /**
   * Configuration for the agent to send push notifications for task updates.
   * Task id should be empty when sending this configuration in a `SendMessage` request.
   */
  'task_push_notification_config'?: (_lf_a2a_v1_TaskPushNotificationConfig__Output);
  /**
   * The maximum number of most recent messages from the task's history to retrieve in
   * the response. An unset value means the client does not impose any limit. A
   * value of zero is a request to not include any messages. The server MUST NOT
   * return more messages than the provided value, but MAY apply a lower limit.
   */
  'history_length'?: (number);
  /**
   * If `true`, the operation returns immediately after creating the task,
   * even if processing is still in progress.
   * If `false` (default), the operation MUST wait until the task reaches a
   * terminal (`COMPLETED`, `FAILED`, `CANCELED`, `REJECTED`) or interrupted
   * (`INPUT_REQUIRED`, `AUTH_REQUIRED`) state before returning.
   */
  'return_immediately'?: (boolean);
  '_history_length'?: "history_length";
}
