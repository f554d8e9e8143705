// Original file: proto/ptyws/admin/v1/admin.proto


export interface CreateTokenRequest {
  'scopes'?: (string)[];
  /**
   * Default: the instance this edge serves (no other is accepted).
   */
  'instance_id'?: (string);
  /**
   * Bind the token to one existing session.
   */
  'session_id'?: (string);
  'ttl_seconds'?: (number);
  'label'?: (string);
  '_instance_id'?: "instance_id";
  '_session_id'?: "session_id";
  '_ttl_seconds'?: "ttl_seconds";
  '_label'?: "label";
}

export interface CreateTokenRequest__Output {
  'scopes'?: (string)[];
  /**
   * Default: the instance this edge serves (no other is accepted).
   */
  'instance_id'?: (string);
  /**
   * Bind the token to one existing session.
   */
  'session_id'?: (string);
  'ttl_seconds'?: (number);
  'label'?: (string);
  '_instance_id'?: "instance_id";
  '_session_id'?: "session_id";
  '_ttl_seconds'?: "ttl_seconds";
  '_label'?: "label";
}
