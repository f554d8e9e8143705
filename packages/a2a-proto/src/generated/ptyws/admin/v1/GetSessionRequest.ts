// Original file: proto/ptyws/admin/v1/admin.proto


export interface GetSessionRequest {
  'session_id'?: (string);
}

export interface GetSessionRequest__Output {
  'session_id'?: (string);
}
