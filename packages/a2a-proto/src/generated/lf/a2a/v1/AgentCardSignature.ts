// Original file: proto/lf/a2a/v1/a2a.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

/**
 * AgentCardSignature represents a JWS signature of an AgentCard.
 * This follows the JSON format of an RFC 7515 JSON Web Signature (JWS).
 */
export interface AgentCardSignature {
  /**
   * (-- api-linter: core::0140::reserved-words=disabled
   * aip.dev/not-precedent: Backwards compatibility --)
   * Required. The protected JWS header for the signature. This is always a
   * base64url-encoded JSON object.
   */
  'protected'?: (string);
  /**
   * Required. The computed signature, base64url-encoded.
   */
  'signature'?: (string);
  /**
   * The unprotected JWS header values.
   */
  'header'?: (_google_protobuf_Struct | null);
}

/**
 * AgentCardSignature represents a JWS signature of an AgentCard.
 * This follows the JSON format of an RFC 7515 JSON Web Signature (JWS).
 */
export interface AgentCardSignature__Output {
  /**
   * (-- api-linter: core::0140::reserved-words=disabled
   * aip.dev/not-precedent: Backwards compatibility --)
   * Required. The protected JWS header for the signature. This is always a
   * base64url-encoded JSON object.
   */
  'protected'?: (string);
  /**
   * Required. The computed signature, base64url-encoded.
   */
  'signature'?: (string);
  /**
   * The unprotected JWS header values.
   */
  'header'?: (_google_protobuf_Struct__Output);
}
