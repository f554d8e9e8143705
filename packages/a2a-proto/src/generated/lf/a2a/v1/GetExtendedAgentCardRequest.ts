// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Represents a request for the `GetExtendedAgentCard` method.
 */
export interface GetExtendedAgentCardRequest {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
}

/**
 * Represents a request for the `GetExtendedAgentCard` method.
 */
export interface GetExtendedAgentCardRequest__Output {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
}
