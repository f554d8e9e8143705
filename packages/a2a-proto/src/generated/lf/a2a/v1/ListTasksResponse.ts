// Original file: proto/lf/a2a/v1/a2a.proto

import type { Task as _lf_a2a_v1_Task, Task__Output as _lf_a2a_v1_Task__Output } from '../../../lf/a2a/v1/Task';

/**
 * Result object for `ListTasks` method containing an array of tasks and pagination information.
 */
export interface ListTasksResponse {
  /**
   * Array of tasks matching the specified criteria.
   */
  'tasks'?: (_lf_a2a_v1_Task)[];
  /**
   * A token to retrieve the next page of results, or empty if there are no more results in the list.
   */
  'next_page_token'?: (string);
  /**
   * The page size used for this response.
   */
  'page_size'?: (number);
  /**
   * Total number of tasks available (before pagination).
   */
  'total_size'?: (number);
}

/**
 * Result object for `ListTasks` method containing an array of tasks and pagination information.
 */
export interface ListTasksResponse__Output {
  /**
   * Array of tasks matching the specified criteria.
   */
  'tasks'?: (_lf_a2a_v1_Task__Output)[];
  /**
   * A token to retrieve the next page of results, or empty if there are no more results in the list.
   */
  'next_page_token'?: (string);
  /**
   * The page size used for this response.
   */
  'page_size'?: (number);
  /**
   * Total number of tasks available (before pagination).
   */
  'total_size'?: (number);
}
