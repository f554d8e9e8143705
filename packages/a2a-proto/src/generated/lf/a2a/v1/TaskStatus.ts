// Original file: proto/lf/a2a/v1/a2a.proto

import type { TaskState as _lf_a2a_v1_TaskState, TaskState__Output as _lf_a2a_v1_TaskState__Output } from '../../../lf/a2a/v1/TaskState';
import type { Message as _lf_a2a_v1_Message, Message__Output as _lf_a2a_v1_Message__Output } from '../../../lf/a2a/v1/Message';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

/**
 * A container for the status of a task
 */
export interface TaskStatus {
  /**
   * The current state of this task.
   */
  'state'?: (_lf_a2a_v1_TaskState);
  /**
   * A message associated with the status.
   */
  'message'?: (_lf_a2a_v1_Message | null);
  /**
   * ISO 8601 Timestamp when the status was recorded.
   * Example: "2023-10-27T10:00:00Z"
   */
  'timestamp'?: (_google_protobuf_Timestamp | null);
}

/**
 * A container for the status of a task
 */
export interface TaskStatus__Output {
  /**
   * The current state of this task.
   */
  'state'?: (_lf_a2a_v1_TaskState__Output);
  /**
   * A message associated with the status.
   */
  'message'?: (_lf_a2a_v1_Message__Output);
  /**
   * ISO 8601 Timestamp when the status was recorded.
   * Example: "2023-10-27T10:00:00Z"
   */
  'timestamp'?: (_google_protobuf_Timestamp__Output);
}
