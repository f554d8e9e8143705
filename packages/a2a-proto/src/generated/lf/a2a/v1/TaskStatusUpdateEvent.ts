// Original file: proto/lf/a2a/v1/a2a.proto

import type { TaskStatus as _lf_a2a_v1_TaskStatus, TaskStatus__Output as _lf_a2a_v1_TaskStatus__Output } from '../../../lf/a2a/v1/TaskStatus';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

/**
 * An event sent by the agent to notify the client of a change in a task's status.
 */
export interface TaskStatusUpdateEvent {
  /**
   * The ID of the task that has changed.
   */
  'task_id'?: (string);
  /**
   * The ID of the context that the task belongs to.
   */
  'context_id'?: (string);
  /**
   * The new status of the task.
   */
  'status'?: (_lf_a2a_v1_TaskStatus | null);
  /**
   * Optional. Metadata associated with the task update.
   */
  'metadata'?: (_google_protobuf_Struct | null);
}

/**
 * An event sent by the agent to notify the client of a change in a task's status.
 */
export interface TaskStatusUpdateEvent__Output {
  /**
   * The ID of the task that has changed.
   */
  'task_id'?: (string);
  /**
   * The ID of the context that the task belongs to.
   */
  'context_id'?: (string);
  /**
   * The new status of the task.
   */
  'status'?: (_lf_a2a_v1_TaskStatus__Output);
  /**
   * Optional. Metadata associated with the task update.
   */
  'metadata'?: (_google_protobuf_Struct__Output);
}
