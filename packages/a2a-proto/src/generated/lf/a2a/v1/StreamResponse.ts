// Original file: proto/lf/a2a/v1/a2a.proto

import type { Task as _lf_a2a_v1_Task, Task__Output as _lf_a2a_v1_Task__Output } from '../../../lf/a2a/v1/Task';
import type { Message as _lf_a2a_v1_Message, Message__Output as _lf_a2a_v1_Message__Output } from '../../../lf/a2a/v1/Message';
import type { TaskStatusUpdateEvent as _lf_a2a_v1_TaskStatusUpdateEvent, TaskStatusUpdateEvent__Output as _lf_a2a_v1_TaskStatusUpdateEvent__Output } from '../../../lf/a2a/v1/TaskStatusUpdateEvent';
import type { TaskArtifactUpdateEvent as _lf_a2a_v1_TaskArtifactUpdateEvent, TaskArtifactUpdateEvent__Output as _lf_a2a_v1_TaskArtifactUpdateEvent__Output } from '../../../lf/a2a/v1/TaskArtifactUpdateEvent';

/**
 * A wrapper object used in streaming operations to encapsulate different types of response data.
 */
export interface StreamResponse {
  /**
   * A Task object containing the current state of the task.
   */
  'task'?: (_lf_a2a_v1_Task | null);
  /**
   * A Message object containing a message from the agent.
   */
  'message'?: (_lf_a2a_v1_Message | null);
  /**
   * An event indicating a task status update.
   */
  'status_update'?: (_lf_a2a_v1_TaskStatusUpdateEvent | null);
  /**
   * An event indicating a task artifact update.
   */
  'artifact_update'?: (_lf_a2a_v1_TaskArtifactUpdateEvent | null);
  /**
   * The payload of the stream response.
   */
  'payload'?: "task"|"message"|"status_update"|"artifact_update";
}

/**
 * A wrapper object used in streaming operations to encapsulate different types of response data.
 */
export interface StreamResponse__Output {
  /**
   * A Task object containing the current state of the task.
   */
  'task'?: (_lf_a2a_v1_Task__Output);
  /**
   * A Message object containing a message from the agent.
   */
  'message'?: (_lf_a2a_v1_Message__Output);
  /**
   * An event indicating a task status update.
   */
  'status_update'?: (_lf_a2a_v1_TaskStatusUpdateEvent__Output);
  /**
   * An event indicating a task artifact update.
   */
  'artifact_update'?: (_lf_a2a_v1_TaskArtifactUpdateEvent__Output);
  /**
   * The payload of the stream response.
   */
  'payload'?: "task"|"message"|"status_update"|"artifact_update";
}
