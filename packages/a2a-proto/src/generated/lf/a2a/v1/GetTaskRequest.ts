// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Represents a request for the `GetTask` method.
 */
export interface GetTaskRequest {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * The resource ID of the task to retrieve.
   */
  'id'?: (string);
  /**
   * The maximum number of most recent messages from the task's history to retrieve. An
   * unset value means the client does not impose any limit. A value of zero is
   * a request to not include any messages. The server MUST NOT return more
   * messages than the provided value, but MAY apply a lower limit.
   */
  'history_length'?: (number);
  '_history_length'?: "history_length";
}

/**
 * Represents a request for the `GetTask` method.
 */
export interface GetTaskRequest__Output {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * The resource ID of the task to retrieve.
   */
  'id'?: (string);
  /**
   * The maximum number of most recent messages from the task's history to retrieve. An
   * unset value means the client does not impose any limit. A value of zero is
   * a request to not include any messages. The server MUST NOT return more
   * messages than the provided value, but MAY apply a lower limit.
   */
  'history_length'?: (number);
  '_history_length'?: "history_length";
}
