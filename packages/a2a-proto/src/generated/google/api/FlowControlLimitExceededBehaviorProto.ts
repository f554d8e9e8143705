// Original file: proto/google/api/client.proto

/**
 * The behavior to take when the flow control limit is exceeded.
 */
export const FlowControlLimitExceededBehaviorProto = {
  /**
   * Default behavior, system-defined.
   */
  UNSET_BEHAVIOR: 'UNSET_BEHAVIOR',
  /**
   * Stop operation, raise error.
   */
  THROW_EXCEPTION: 'THROW_EXCEPTION',
  /**
   * Pause operation until limit clears.
   */
  BLOCK: 'BLOCK',
  /**
   * Continue operation, disregard limit.
   */
  IGNORE: 'IGNORE',
} as const;

/**
 * The behavior to take when the flow control limit is exceeded.
 */
export type FlowControlLimitExceededBehaviorProto =
  /**
   * Default behavior, system-defined.
   */
  | 'UNSET_BEHAVIOR'
  | 0
  /**
   * Stop operation, raise error.
   */
  | 'THROW_EXCEPTION'
  | 1
  /**
   * Pause operation until limit clears.
   */
  | 'BLOCK'
  | 2
  /**
   * Continue operation, disregard limit.
   */
  | 'IGNORE'
  | 3

/**
 * The behavior to take when the flow control limit is exceeded.
 */
export type FlowControlLimitExceededBehaviorProto__Output = typeof FlowControlLimitExceededBehaviorProto[keyof typeof FlowControlLimitExceededBehaviorProto]
