// Original file: proto/lf/a2a/v1/a2a.proto

/**
 * Defines the possible lifecycle states of a `Task`.
 */
export const TaskState = {
  /**
   * The task is in an unknown or indeterminate state.
   */
  TASK_STATE_UNSPECIFIED: 'TASK_STATE_UNSPECIFIED',
  /**
   * Indicates that a task has been successfully submitted and acknowledged.
   */
  TASK_STATE_SUBMITTED: 'TASK_STATE_SUBMITTED',
  /**
   * Indicates that a task is actively being processed by the agent.
   */
  TASK_STATE_WORKING: 'TASK_STATE_WORKING',
  /**
   * Indicates that a task has finished successfully. This is a terminal state.
   */
  TASK_STATE_COMPLETED: 'TASK_STATE_COMPLETED',
  /**
   * Indicates that a task has finished with an error. This is a terminal state.
   */
  TASK_STATE_FAILED: 'TASK_STATE_FAILED',
  /**
   * Indicates that a task was canceled before completion. This is a terminal state.
   */
  TASK_STATE_CANCELED: 'TASK_STATE_CANCELED',
  /**
   * Indicates that the agent requires additional user input to proceed. This is an interrupted state.
   */
  TASK_STATE_INPUT_REQUIRED: 'TASK_STATE_INPUT_REQUIRED',
  /**
   * Indicates that the agent has decided to not perform the task.
   * This may be done during initial task creation or later once an agent
   * has determined it can't or won't proceed. This is a terminal state.
   */
  TASK_STATE_REJECTED: 'TASK_STATE_REJECTED',
  /**
   * Indicates that authentication is required to proceed. This is an interrupted state.
   */
  TASK_STATE_AUTH_REQUIRED: 'TASK_STATE_AUTH_REQUIRED',
} as const;

/**
 * Defines the possible lifecycle states of a `Task`.
 */
export type TaskState =
  /**
   * The task is in an unknown or indeterminate state.
   */
  | 'TASK_STATE_UNSPECIFIED'
  | 0
  /**
   * Indicates that a task has been successfully submitted and acknowledged.
   */
  | 'TASK_STATE_SUBMITTED'
  | 1
  /**
   * Indicates that a task is actively being processed by the agent.
   */
  | 'TASK_STATE_WORKING'
  | 2
  /**
   * Indicates that a task has finished successfully. This is a terminal state.
   */
  | 'TASK_STATE_COMPLETED'
  | 3
  /**
   * Indicates that a task has finished with an error. This is a terminal state.
   */
  | 'TASK_STATE_FAILED'
  | 4
  /**
   * Indicates that a task was canceled before completion. This is a terminal state.
   */
  | 'TASK_STATE_CANCELED'
  | 5
  /**
   * Indicates that the agent requires additional user input to proceed. This is an interrupted state.
   */
  | 'TASK_STATE_INPUT_REQUIRED'
  | 6
  /**
   * Indicates that the agent has decided to not perform the task.
   * This may be done during initial task creation or later once an agent
   * has determined it can't or won't proceed. This is a terminal state.
   */
  | 'TASK_STATE_REJECTED'
  | 7
  /**
   * Indicates that authentication is required to proceed. This is an interrupted state.
   */
  | 'TASK_STATE_AUTH_REQUIRED'
  | 8

/**
 * Defines the possible lifecycle states of a `Task`.
 */
export type TaskState__Output = typeof TaskState[keyof typeof TaskState]
