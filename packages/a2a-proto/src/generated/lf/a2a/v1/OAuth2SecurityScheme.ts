// Original file: proto/lf/a2a/v1/a2a.proto

import type { OAuthFlows as _lf_a2a_v1_OAuthFlows, OAuthFlows__Output as _lf_a2a_v1_OAuthFlows__Output } from '../../../lf/a2a/v1/OAuthFlows';

/**
 * Defines a security scheme using OAuth 2.0.
 */
export interface OAuth2SecurityScheme {
  /**
   * An optional description for the security scheme.
   */
  'description'?: (string);
  /**
   * An object containing configuration information for the supported OAuth 2.0 flows.
   */
  'flows'?: (_lf_a2a_v1_OAuthFlows | null);
  /**
   * URL to the OAuth2 authorization server metadata [RFC 8414](https://datatracker.ietf.org/doc/html/rfc8414).
   * TLS is required.
   */
  'oauth2_metadata_url'?: (string);
}

/**
 * Defines a security scheme using OAuth 2.0.
 */
export interface OAuth2SecurityScheme__Output {
  /**
   * An optional description for the security scheme.
   */
  'description'?: (string);
  /**
   * An object containing configuration information for the supported OAuth 2.0 flows.
   */
  'flows'?: (_lf_a2a_v1_OAuthFlows__Output);
  /**
   * URL to the OAuth2 authorization server metadata [RFC 8414](https://datatracker.ietf.org/doc/html/rfc8414).
   * TLS is required.
   */
  'oauth2_metadata_url'?: (string);
}
