// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Represents a request for the `GetTaskPushNotificationConfig` method.
 */
export interface GetTaskPushNotificationConfigRequest {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * The parent task resource ID.
   */
  'task_id'?: (string);
  /**
   * The resource ID of the configuration to retrieve.
   */
  'id'?: (string);
}

/**
 * Represents a request for the `GetTaskPushNotificationConfig` method.
 */
export interface GetTaskPushNotificationConfigRequest__Output {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * The parent task resource ID.
   */
  'task_id'?: (string);
  /**
   * The resource ID of the configuration to retrieve.
   */
  'id'?: (string);
}
