// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Defines a security scheme using an API key.
 */
export interface APIKeySecurityScheme {
  /**
   * An optional description for the security scheme.
   */
  'description'?: (string);
  /**
   * The location of the API key. Valid values are "query", "header", or "cookie".
   */
  'location'?: (string);
  /**
   * The name of the header, query, or cookie parameter to be used.
   */
  'name'?: (string);
}

/**
 * Defines a security scheme using an API key.
 */
export interface APIKeySecurityScheme__Output {
  /**
   * An optional description for the security scheme.
   */
  'description'?: (string);
  /**
   * The location of the API key. Valid values are "query", "header", or "cookie".
   */
  'location'?: (string);
  /**
   * The name of the header, query, or cookie parameter to be used.
   */
  'name'?: (string);
}
