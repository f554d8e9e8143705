// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Defines authentication details, used for push notifications.
 */
export interface AuthenticationInfo {
  /**
   * HTTP Authentication Scheme from the [IANA registry](https://www.iana.org/assignments/http-authschemes/).
   * Examples: `Bearer`, `Basic`, `Digest`.
   * Scheme names are case-insensitive per [RFC 9110 Section 11.1](https://www.rfc-editor.org/rfc/rfc9110#section-11.1).
   */
  'scheme'?: (string);
  /**
   * Push Notification credentials. Format depends on the scheme (e.g., token for Bearer).
   */
  'credentials'?: (string);
}

/**
 * Defines authentication details, used for push notifications.
 */
export interface AuthenticationInfo__Output {
  /**
   * HTTP Authentication Scheme from the [IANA registry](https://www.iana.org/assignments/http-authschemes/).
   * Examples: `Bearer`, `Basic`, `Digest`.
   * Scheme names are case-insensitive per [RFC 9110 Section 11.1](https://www.rfc-editor.org/rfc/rfc9110#section-11.1).
   */
  'scheme'?: (string);
  /**
   * Push Notification credentials. Format depends on the scheme (e.g., token for Bearer).
   */
  'credentials'?: (string);
}
