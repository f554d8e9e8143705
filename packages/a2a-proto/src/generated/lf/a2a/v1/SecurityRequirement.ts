// Original file: proto/lf/a2a/v1/a2a.proto

import type { StringList as _lf_a2a_v1_StringList, StringList__Output as _lf_a2a_v1_StringList__Output } from '../../../lf/a2a/v1/StringList';

/**
 * Defines the security requirements for an agent.
 */
export interface SecurityRequirement {
  /**
   * A map of security schemes to the required scopes.
   */
  'schemes'?: ({[key: string]: _lf_a2a_v1_StringList});
}

/**
 * Defines the security requirements for an agent.
 */
export interface SecurityRequirement__Output {
  /**
   * A map of security schemes to the required scopes.
   */
  'schemes'?: ({[key: string]: _lf_a2a_v1_StringList__Output});
}
