// Original file: proto/ptyws/admin/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

/**
 * A token without its secret.
 */
export interface Token {
  'token_id'?: (string);
  /**
   * `pty:observe`, `pty:control`, `pty:admin`.
   */
  'scopes'?: (string)[];
  'instance_id'?: (string);
  /**
   * Set when the token is bound to one session.
   */
  'session_id'?: (string);
  'label'?: (string);
  'created_by'?: (string);
  'created_at'?: (_google_protobuf_Timestamp | null);
  'expires_at'?: (_google_protobuf_Timestamp | null);
  'last_used_at'?: (_google_protobuf_Timestamp | null);
  'revoked_at'?: (_google_protobuf_Timestamp | null);
  '_session_id'?: "session_id";
  '_label'?: "label";
}

/**
 * A token without its secret.
 */
export interface Token__Output {
  'token_id'?: (string);
  /**
   * `pty:observe`, `pty:control`, `pty:admin`.
   */
  'scopes'?: (string)[];
  'instance_id'?: (string);
  /**
   * Set when the token is bound to one session.
   */
  'session_id'?: (string);
  'label'?: (string);
  'created_by'?: (string);
  'created_at'?: (_google_protobuf_Timestamp__Output);
  'expires_at'?: (_google_protobuf_Timestamp__Output);
  'last_used_at'?: (_google_protobuf_Timestamp__Output);
  'revoked_at'?: (_google_protobuf_Timestamp__Output);
  '_session_id'?: "session_id";
  '_label'?: "label";
}
