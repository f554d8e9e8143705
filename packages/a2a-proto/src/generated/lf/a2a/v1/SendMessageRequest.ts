// Original file: proto/lf/a2a/v1/a2a.proto

import type { Message as _lf_a2a_v1_Message, Message__Output as _lf_a2a_v1_Message__Output } from '../../../lf/a2a/v1/Message';
import type { SendMessageConfiguration as _lf_a2a_v1_SendMessageConfiguration, SendMessageConfiguration__Output as _lf_a2a_v1_SendMessageConfiguration__Output } from '../../../lf/a2a/v1/SendMessageConfiguration';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

/**
 * Represents a request for the `SendMessage` method.
 */
export interface SendMessageRequest {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * The message to send to the agent.
   */
  'message'?: (_lf_a2a_v1_Message | null);
  /**
   * Configuration for the send request.
   */
  'configuration'?: (_lf_a2a_v1_SendMessageConfiguration | null);
  /**
   * A flexible key-value map for passing additional context or parameters.
   */
  'metadata'?: (_google_protobuf_Struct | null);
}

/**
 * Represents a request for the `SendMessage` method.
 */
export interface SendMessageRequest__Output {
  /**
   * Optional. Tenant ID, provided as a path parameter.
   */
  'tenant'?: (string);
  /**
   * The message to send to the agent.
   */
  'message'?: (_lf_a2a_v1_Message__Output);
  /**
   * Configuration for the send request.
   */
  'configuration'?: (_lf_a2a_v1_SendMessageConfiguration__Output);
  /**
   * A flexible key-value map for passing additional context or parameters.
   */
  'metadata'?: (_google_protobuf_Struct__Output);
}
