// Original file: proto/ptyws/admin/v1/admin.proto


export interface KillSessionRequest {
  'session_id'?: (string);
}

export interface KillSessionRequest__Output {
  'session_id'?: (string);
}
