// Original file: proto/lf/a2a/v1/a2a.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

/**
 * Represents a request for the `CancelTask` method.
 */
export interface CancelTaskRequest {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * The resource ID of the task to cancel.
   */
  'id'?: (string);
  /**
   * A flexible key-value map for passing additional context or parameters.
   */
  'metadata'?: (_google_protobuf_Struct | null);
}

/**
 * Represents a request for the `CancelTask` method.
 */
export interface CancelTaskRequest__Output {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * The resource ID of the task to cancel.
   */
  'id'?: (string);
  /**
   * A flexible key-value map for passing additional context or parameters.
   */
  'metadata'?: (_google_protobuf_Struct__Output);
}
