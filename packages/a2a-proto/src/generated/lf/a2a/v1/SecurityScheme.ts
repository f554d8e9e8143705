// Original file: proto/lf/a2a/v1/a2a.proto

import type { APIKeySecurityScheme as _lf_a2a_v1_APIKeySecurityScheme, APIKeySecurityScheme__Output as _lf_a2a_v1_APIKeySecurityScheme__Output } from '../../../lf/a2a/v1/APIKeySecurityScheme';
import type { HTTPAuthSecurityScheme as _lf_a2a_v1_HTTPAuthSecurityScheme, HTTPAuthSecurityScheme__Output as _lf_a2a_v1_HTTPAuthSecurityScheme__Output } from '../../../lf/a2a/v1/HTTPAuthSecurityScheme';
import type { OAuth2SecurityScheme as _lf_a2a_v1_OAuth2SecurityScheme, OAuth2SecurityScheme__Output as _lf_a2a_v1_OAuth2SecurityScheme__Output } from '../../../lf/a2a/v1/OAuth2SecurityScheme';
import type { OpenIdConnectSecurityScheme as _lf_a2a_v1_OpenIdConnectSecurityScheme, OpenIdConnectSecurityScheme__Output as _lf_a2a_v1_OpenIdConnectSecurityScheme__Output } from '../../../lf/a2a/v1/OpenIdConnectSecurityScheme';
import type { MutualTlsSecurityScheme as _lf_a2a_v1_MutualTlsSecurityScheme, MutualTlsSecurityScheme__Output as _lf_a2a_v1_MutualTlsSecurityScheme__Output } from '../../../lf/a2a/v1/MutualTlsSecurityScheme';

/**
 * Defines a security scheme that can be used to secure an agent's endpoints.
 * This is a discriminated union type based on the OpenAPI 3.2 Security Scheme Object.
 * See: https://spec.openapis.org/oas/v3.2.0.html#security-scheme-object
 */
export interface SecurityScheme {
  /**
   * API key-based authentication.
   */
  'api_key_security_scheme'?: (_lf_a2a_v1_APIKeySecurityScheme | null);
  /**
   * HTTP authentication (Basic, Bearer, etc.).
   */
  'http_auth_security_scheme'?: (_lf_a2a_v1_HTTPAuthSecurityScheme | null);
  /**
   * OAuth 2.0 authentication.
   */
  'oauth2_security_scheme'?: (_lf_a2a_v1_OAuth2SecurityScheme | null);
  /**
   * OpenID Connect authentication.
   */
  'open_id_connect_security_scheme'?: (_lf_a2a_v1_OpenIdConnectSecurityScheme | null);
  /**
   * Mutual TLS authentication.
   */
  'mtls_security_scheme'?: (_lf_a2a_v1_MutualTlsSecurityScheme | null);
  'scheme'?: "api_key_security_scheme"|"http_auth_security_scheme"|"oauth2_security_scheme"|"open_id_connect_security_scheme"|"mtls_security_scheme";
}

/**
 * Defines a security scheme that can be used to secure an agent's endpoints.
 * This is a discriminated union type based on the OpenAPI 3.2 Security Scheme Object.
 * See: https://spec.openapis.org/oas/v3.2.0.html#security-scheme-object
 */
export interface SecurityScheme__Output {
  /**
   * API key-based authentication.
   */
  'api_key_security_scheme'?: (_lf_a2a_v1_APIKeySecurityScheme__Output);
  /**
   * HTTP authentication (Basic, Bearer, etc.).
   */
  'http_auth_security_scheme'?: (_lf_a2a_v1_HTTPAuthSecurityScheme__Output);
  /**
   * OAuth 2.0 authentication.
   */
  'oauth2_security_scheme'?: (_lf_a2a_v1_OAuth2SecurityScheme__Output);
  /**
   * OpenID Connect authentication.
   */
  'open_id_connect_security_scheme'?: (_lf_a2a_v1_OpenIdConnectSecurityScheme__Output);
  /**
   * Mutual TLS authentication.
   */
  'mtls_security_scheme'?: (_lf_a2a_v1_MutualTlsSecurityScheme__Output);
  'scheme'?: "api_key_security_scheme"|"http_auth_security_scheme"|"oauth2_security_scheme"|"open_id_connect_security_scheme"|"mtls_security_scheme";
}
