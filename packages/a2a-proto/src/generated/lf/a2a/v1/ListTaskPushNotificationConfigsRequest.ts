// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Represents a request for the `ListTaskPushNotificationConfigs` method.
 */
export interface ListTaskPushNotificationConfigsRequest {
  /**
   * The parent task resource ID.
   */
  'task_id'?: (string);
  /**
   * The maximum number of configurations to return.
   */
  'page_size'?: (number);
  /**
   * A page token received from a previous `ListTaskPushNotificationConfigsRequest` call.
   */
  'page_token'?: (string);
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
}

/**
 * Represents a request for the `ListTaskPushNotificationConfigs` method.
 */
export interface ListTaskPushNotificationConfigsRequest__Output {
  /**
   * The parent task resource ID.
   */
  'task_id'?: (string);
  /**
   * The maximum number of configurations to return.
   */
  'page_size'?: (number);
  /**
   * A page token received from a previous `ListTaskPushNotificationConfigsRequest` call.
   */
  'page_token'?: (string);
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
}
