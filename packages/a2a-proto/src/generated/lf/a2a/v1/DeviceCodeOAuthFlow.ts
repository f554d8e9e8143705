// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Defines configuration details for the OAuth 2.0 Device Code flow (RFC 8628).
 * This flow is designed for input-constrained devices such as IoT devices,
 * and CLI tools where the user authenticates on a separate device.
 */
export interface DeviceCodeOAuthFlow {
  /**
   * The device authorization endpoint URL.
   */
  'device_authorization_url'?: (string);
  /**
   * The token URL to be used for this flow.
   */
  'token_url'?: (string);
  /**
   * The URL to be used for obtaining refresh tokens.
   */
  'refresh_url'?: (string);
  /**
   * The available scopes for the OAuth2 security scheme.
   */
  'scopes'?: ({[key: string]: string});
}

/**
 * Defines configuration details for the OAuth 2.0 Device Code flow (RFC 8628).
 * This flow is designed for input-constrained devices such as IoT devices,
 * and CLI tools where the user authenticates on a separate device.
 */
export interface DeviceCodeOAuthFlow__Output {
  /**
   * The device authorization endpoint URL.
   */
  'device_authorization_url'?: (string);
  /**
   * The token URL to be used for this flow.
   */
  'token_url'?: (string);
  /**
   * The URL to be used for obtaining refresh tokens.
   */
  'refresh_url'?: (string);
  /**
   * The available scopes for the OAuth2 security scheme.
   */
  'scopes'?: ({[key: string]: string});
}
