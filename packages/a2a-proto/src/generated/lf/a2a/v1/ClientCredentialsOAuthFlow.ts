// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Defines configuration details for the OAuth 2.0 Client Credentials flow.
 */
export interface ClientCredentialsOAuthFlow {
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
 * Defines configuration details for the OAuth 2.0 Client Credentials flow.
 */
export interface ClientCredentialsOAuthFlow__Output {
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
