// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Represents a request for the `SubscribeToTask` method.
 */
export interface SubscribeToTaskRequest {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * The resource ID of the task to subscribe to.
   */
  'id'?: (string);
}

/**
 * Represents a request for the `SubscribeToTask` method.
 */
export interface SubscribeToTaskRequest__Output {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * The resource ID of the task to subscribe to.
   */
  'id'?: (string);
}
