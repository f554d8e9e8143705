// Original file: proto/google/api/client.proto

import type { BatchingSettingsProto as _google_api_BatchingSettingsProto, BatchingSettingsProto__Output as _google_api_BatchingSettingsProto__Output } from '../../google/api/BatchingSettingsProto';
import type { BatchingDescriptorProto as _google_api_BatchingDescriptorProto, BatchingDescriptorProto__Output as _google_api_BatchingDescriptorProto__Output } from '../../google/api/BatchingDescriptorProto';

/**
 * `BatchingConfigProto` defines the batching configuration for an API method.
 */
export interface BatchingConfigProto {
  /**
   * The thresholds which trigger a batched request to be sent.
   */
  'thresholds'?: (_google_api_BatchingSettingsProto | null);
  /**
   * The request and response fields used in batching.
   */
  'batch_descriptor'?: (_google_api_BatchingDescriptorProto | null);
}

/**
 * `BatchingConfigProto` defines the batching configuration for an API method.
 */
export interface BatchingConfigProto__Output {
  /**
   * The thresholds which trigger a batched request to be sent.
   */
  'thresholds'?: (_google_api_BatchingSettingsProto__Output);
  /**
   * The request and response fields used in batching.
   */
  'batch_descriptor'?: (_google_api_BatchingDescriptorProto__Output);
}
