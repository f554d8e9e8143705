// Original file: proto/lf/a2a/v1/a2a.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

/**
 * A declaration of a protocol extension supported by an Agent.
 */
export interface AgentExtension {
  /**
   * The unique URI identifying the extension.
   */
  'uri'?: (string);
  /**
   * A human-readable description of how this agent uses the extension.
   */
  'description'?: (string);
  /**
   * If true, the client must understand and comply with the extension's requirements.
   */
  'required'?: (boolean);
  /**
   * Optional. Extension-specific configuration parameters.
   */
  'params'?: (_google_protobuf_Struct | null);
}

/**
 * A declaration of a protocol extension supported by an Agent.
 */
export interface AgentExtension__Output {
  /**
   * The unique URI identifying the extension.
   */
  'uri'?: (string);
  /**
   * A human-readable description of how this agent uses the extension.
   */
  'description'?: (string);
  /**
   * If true, the client must understand and comply with the extension's requirements.
   */
  'required'?: (boolean);
  /**
   * Optional. Extension-specific configuration parameters.
   */
  'params'?: (_google_protobuf_Struct__Output);
}
