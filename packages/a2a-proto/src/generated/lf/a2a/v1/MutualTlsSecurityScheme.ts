// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Defines a security scheme using mTLS authentication.
 */
export interface MutualTlsSecurityScheme {
  /**
   * An optional description for the security scheme.
   */
  'description'?: (string);
}

/**
 * Defines a security scheme using mTLS authentication.
 */
export interface MutualTlsSecurityScheme__Output {
  /**
   * An optional description for the security scheme.
   */
  'description'?: (string);
}
