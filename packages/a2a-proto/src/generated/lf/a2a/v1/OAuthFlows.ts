// Original file: proto/lf/a2a/v1/a2a.proto

import type { AuthorizationCodeOAuthFlow as _lf_a2a_v1_AuthorizationCodeOAuthFlow, AuthorizationCodeOAuthFlow__Output as _lf_a2a_v1_AuthorizationCodeOAuthFlow__Output } from '../../../lf/a2a/v1/AuthorizationCodeOAuthFlow';
import type { ClientCredentialsOAuthFlow as _lf_a2a_v1_ClientCredentialsOAuthFlow, ClientCredentialsOAuthFlow__Output as _lf_a2a_v1_ClientCredentialsOAuthFlow__Output } from '../../../lf/a2a/v1/ClientCredentialsOAuthFlow';
import type { ImplicitOAuthFlow as _lf_a2a_v1_ImplicitOAuthFlow, ImplicitOAuthFlow__Output as _lf_a2a_v1_ImplicitOAuthFlow__Output } from '../../../lf/a2a/v1/ImplicitOAuthFlow';
import type { PasswordOAuthFlow as _lf_a2a_v1_PasswordOAuthFlow, PasswordOAuthFlow__Output as _lf_a2a_v1_PasswordOAuthFlow__Output } from '../../../lf/a2a/v1/PasswordOAuthFlow';
import type { DeviceCodeOAuthFlow as _lf_a2a_v1_DeviceCodeOAuthFlow, DeviceCodeOAuthFlow__Output as _lf_a2a_v1_DeviceCodeOAuthFlow__Output } from '../../../lf/a2a/v1/DeviceCodeOAuthFlow';

/**
 * Defines the configuration for the supported OAuth 2.0 flows.
 */
export interface OAuthFlows {
  /**
   * Configuration for the OAuth Authorization Code flow.
   */
  'authorization_code'?: (_lf_a2a_v1_AuthorizationCodeOAuthFlow | null);
  /**
   * Configuration for the OAuth Client Credentials flow.
   */
  'client_credentials'?: (_lf_a2a_v1_ClientCredentialsOAuthFlow | null);
  /**
   * Deprecated: Use Authorization Code + PKCE instead.
   * @deprecated
   */
  'implicit'?: (_lf_a2a_v1_ImplicitOAuthFlow | null);
  /**
   * Deprecated: Use Authorization Code + PKCE or Device Code.
   * @deprecated
   */
  'password'?: (_lf_a2a_v1_PasswordOAuthFlow | null);
  /**
   * Configuration for the OAuth Device Code flow.
   */
  'device_code'?: (_lf_a2a_v1_DeviceCodeOAuthFlow | null);
  'flow'?: "authorization_code"|"client_credentials"|"implicit"|"password"|"device_code";
}

/**
 * Defines the configuration for the supported OAuth 2.0 flows.
 */
export interface OAuthFlows__Output {
  /**
   * Configuration for the OAuth Authorization Code flow.
   */
  'authorization_code'?: (_lf_a2a_v1_AuthorizationCodeOAuthFlow__Output);
  /**
   * Configuration for the OAuth Client Credentials flow.
   */
  'client_credentials'?: (_lf_a2a_v1_ClientCredentialsOAuthFlow__Output);
  /**
   * Deprecated: Use Authorization Code + PKCE instead.
   * @deprecated
   */
  'implicit'?: (_lf_a2a_v1_ImplicitOAuthFlow__Output);
  /**
   * Deprecated: Use Authorization Code + PKCE or Device Code.
   * @deprecated
   */
  'password'?: (_lf_a2a_v1_PasswordOAuthFlow__Output);
  /**
   * Configuration for the OAuth Device Code flow.
   */
  'device_code'?: (_lf_a2a_v1_DeviceCodeOAuthFlow__Output);
  'flow'?: "authorization_code"|"client_credentials"|"implicit"|"password"|"device_code";
}
