// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Defines a security scheme using HTTP authentication.
 */
export interface HTTPAuthSecurityScheme {
  /**
   * An optional description for the security scheme.
   */
  'description'?: (string);
  /**
   * The name of the HTTP Authentication scheme to be used in the Authorization header,
   * as defined in RFC7235 (e.g., "Bearer").
   * This value should be registered in the IANA Authentication Scheme registry.
   */
  'scheme'?: (string);
  /**
   * A hint to the client to identify how the bearer token is formatted (e.g., "JWT").
   * Primarily for documentation purposes.
   */
  'bearer_format'?: (string);
}

/**
 * Defines a security scheme using HTTP authentication.
 */
export interface HTTPAuthSecurityScheme__Output {
  /**
   * An optional description for the security scheme.
   */
  'description'?: (string);
  /**
   * The name of the HTTP Authentication scheme to be used in the Authorization header,
   * as defined in RFC7235 (e.g., "Bearer").
   * This value should be registered in the IANA Authentication Scheme registry.
   */
  'scheme'?: (string);
  /**
   * A hint to the client to identify how the bearer token is formatted (e.g., "JWT").
   * Primarily for documentation purposes.
   */
  'bearer_format'?: (string);
}
