// Original file: proto/lf/a2a/v1/a2a.proto

import type { Task as _lf_a2a_v1_Task, Task__Output as _lf_a2a_v1_Task__Output } from '../../../lf/a2a/v1/Task';
import type { Message as _lf_a2a_v1_Message, Message__Output as _lf_a2a_v1_Message__Output } from '../../../lf/a2a/v1/Message';

/**
 * Represents the response for the `SendMessage` method.
 */
export interface SendMessageResponse {
  /**
   * The task created or updated by the message.
   */
  'task'?: (_lf_a2a_v1_Task | null);
  /**
   * A message from the agent.
   */
  'message'?: (_lf_a2a_v1_Message | null);
  /**
   * The payload of the response.
   */
  'payload'?: "task"|"message";
}

/**
 * Represents the response for the `SendMessage` method.
 */
export interface SendMessageResponse__Output {
  /**
   * The task created or updated by the message.
   */
  'task'?: (_lf_a2a_v1_Task__Output);
  /**
   * A message from the agent.
   */
  'message'?: (_lf_a2a_v1_Message__Output);
  /**
   * The payload of the response.
   */
  'payload'?: "task"|"message";
}
