// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Defines a security scheme using OpenID Connect.
 */
export interface OpenIdConnectSecurityScheme {
  /**
   * An optional description for the security scheme.
   */
  'description'?: (string);
  /**
   * The [OpenID Connect Discovery URL](https://openid.net/specs/openid-connect-discovery-1_0.html) for the OIDC provider's metadata.
   */
  'open_id_connect_url'?: (string);
}

/**
 * Defines a security scheme using OpenID Connect.
 */
export interface OpenIdConnectSecurityScheme__Output {
  /**
   * An optional description for the security scheme.
   */
  'description'?: (string);
  /**
   * The [OpenID Connect Discovery URL](https://openid.net/specs/openid-connect-discovery-1_0.html) for the OIDC provider's metadata.
   */
  'open_id_connect_url'?: (string);
}
