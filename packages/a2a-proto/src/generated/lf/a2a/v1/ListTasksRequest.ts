// Original file: proto/lf/a2a/v1/a2a.proto

import type { TaskState as _lf_a2a_v1_TaskState, TaskState__Output as _lf_a2a_v1_TaskState__Output } from '../../../lf/a2a/v1/TaskState';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

/**
 * Parameters for listing tasks with optional filtering criteria.
 */
export interface ListTasksRequest {
  /**
   * Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * Filter tasks by context ID to get tasks from a specific conversation or session.
   */
  'context_id'?: (string);
  /**
   * Filter tasks by their current status state.
   */
  'status'?: (_lf_a2a_v1_TaskState);
  /**
   * The maximum number of tasks to return. The service may return fewer than this value.
   * If unspecified, at most 50 tasks will be returned.
   * The minimum value is 1.
   * The maximum value is 100.
   */
  'page_size'?: (number);
  /**
   * A page token, received from a previous `ListTasks` call.
   * `ListTasksResponse.next_page_token`.
   * Provide this to retrieve the subsequent page.
   */
  'page_token'?: (string);
  /**
   * The maximum number of messages to include in each task's history.
   */
  'history_length'?: (number);
  /**
   * Filter tasks which have a status updated after the provided timestamp in ISO 8601 format (e.g., "2023-10-27T10:00:00Z").
   * Only tasks with a status timestamp time greater than or equal to this value will be returned.
   */
  'status_timestamp_after'?: (_google_protobuf_Timestamp | null);
  /**
   * Whether to include artifacts in the returned tasks.
   * Defaults to false to reduce payload size.
   */
  'include_artifacts'?: (boolean);
  '_page_size'?: "page_size";
  '_history_length'?: "history_length";
  '_include_artifacts'?: "include_artifacts";
}

/**
 * Parameters for listing tasks with optional filtering criteria.
 */
export interface ListTasksRequest__Output {
  /**
   * Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * Filter tasks by context ID to get tasks from a specific conversation or session.
   */
  'context_id'?: (string);
  /**
   * Filter tasks by their current status state.
   */
  'status'?: (_lf_a2a_v1_TaskState__Output);
  /**
   * The maximum number of tasks to return. The service may return fewer than this value.
   * If unspecified, at most 50 tasks will be returned.
   * The minimum value is 1.
   * The maximum value is 100.
   */
  'page_size'?: (number);
  /**
   * A page token, received from a previous `ListTasks` call.
   * `ListTasksResponse.next_page_token`.
   * Provide this to retrieve the subsequent page.
   */
  'page_token'?: (string);
  /**
   * The maximum number of messages to include in each task's history.
   */
  'history_length'?: (number);
  /**
   * Filter tasks which have a status updated after the provided timestamp in ISO 8601 format (e.g., "2023-10-27T10:00:00Z").
   * Only tasks with a status timestamp time greater than or equal to this value will be returned.
   */
  'status_timestamp_after'?: (_google_protobuf_Timestamp__Output);
  /**
   * Whether to include artifacts in the returned tasks.
   * Defaults to false to reduce payload size.
   */
  'include_artifacts'?: (boolean);
  '_page_size'?: "page_size";
  '_history_length'?: "history_length";
  '_include_artifacts'?: "include_artifacts";
}
