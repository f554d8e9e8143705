// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Defines configuration details for the OAuth 2.0 Authorization Code flow.
 */
export interface AuthorizationCodeOAuthFlow {
  /**
   * The authorization URL to be used for this flow.
   */
  'authorization_url'?: (string);
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
  /**
   * Indicates if PKCE (RFC 7636) is required for this flow.
   * PKCE should always be used for public clients and is recommended for all clients.
   */
  'pkce_required'?: (boolean);
}

/**
 * Defines configuration details for the OAuth 2.0 Authorization Code flow.
 */
export interface AuthorizationCodeOAuthFlow__Output {
  /**
   * The authorization URL to be used for this flow.
   */
  'authorization_url'?: (string);
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
  /**
   * Indicates if PKCE (RFC 7636) is required for this flow.
   * PKCE should always be used for public clients and is recommended for all clients.
   */
  'pkce_required'?: (boolean);
}
