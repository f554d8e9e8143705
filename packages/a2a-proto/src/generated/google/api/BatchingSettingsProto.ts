// Original file: proto/google/api/client.proto

import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../google/protobuf/Duration';
import type { FlowControlLimitExceededBehaviorProto as _google_api_FlowControlLimitExceededBehaviorProto, FlowControlLimitExceededBehaviorProto__Output as _google_api_FlowControlLimitExceededBehaviorProto__Output } from '../../google/api/FlowControlLimitExceededBehaviorProto';
import type { Long } from '@grpc/proto-loader';

/**
 * `BatchingSettingsProto` specifies a set of batching thresholds, each of
 * which acts as a trigger to send a batch of messages as a request. At least
 * one threshold must be positive nonzero.
 */
export interface BatchingSettingsProto {
  /**
   * The number of elements of a field collected into a batch which, if
   * exceeded, causes the batch to be sent.
   */
  'element_count_threshold'?: (number);
  /**
   * The aggregated size of the batched field which, if exceeded, causes the
   * batch to be sent. This size is computed by aggregating the sizes of the
   * request field to be batched, not of the entire request message.
   */
  'request_byte_threshold'?: (number | string | Long);
  /**
   * The duration after which a batch should be sent, starting from the addition
   * of the first message to that batch.
   */
  'delay_threshold'?: (_google_protobuf_Duration | null);
  /**
   * The maximum number of elements collected in a batch that could be accepted
   * by server.
   */
  'element_count_limit'?: (number);
  /**
   * The maximum size of the request that could be accepted by server.
   */
  'request_byte_limit'?: (number);
  /**
   * The maximum number of elements allowed by flow control.
   */
  'flow_control_element_limit'?: (number);
  /**
   * The maximum size of data allowed by flow control.
   */
  'flow_control_byte_limit'?: (number);
  'flow_control_limit_exceeded_behavior'?: (_google_api_FlowControlLimitExceededBehaviorProto);
}

/**
 * `BatchingSettingsProto` specifies a set of batching thresholds, each of
 * which acts as a trigger to send a batch of messages as a request. At least
 * one threshold must be positive nonzero.
 */
export interface BatchingSettingsProto__Output {
  /**
   * The number of elements of a field collected into a batch which, if
   * exceeded, causes the batch to be sent.
   */
  'element_count_threshold'?: (number);
  /**
   * The aggregated size of the batched field which, if exceeded, causes the
   * batch to be sent. This size is computed by aggregating the sizes of the
   * request field to be batched, not of the entire request message.
   */
  'request_byte_threshold'?: (string);
  /**
   * The duration after which a batch should be sent, starting from the addition
   * of the first message to that batch.
   */
  'delay_threshold'?: (_google_protobuf_Duration__Output);
  /**
   * The maximum number of elements collected in a batch that could be accepted
   * by server.
   */
  'element_count_limit'?: (number);
  /**
   * The maximum size of the request that could be accepted by server.
   */
  'request_byte_limit'?: (number);
  /**
   * The maximum number of elements allowed by flow control.
   */
  'flow_control_element_limit'?: (number);
  /**
   * The maximum size of data allowed by flow control.
   */
  'flow_control_byte_limit'?: (number);
  'flow_control_limit_exceeded_behavior'?: (_google_api_FlowControlLimitExceededBehaviorProto__Output);
}
