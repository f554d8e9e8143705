// Original file: proto/ptyws/admin/v1/admin.proto


export interface RevokeTokenRequest {
  'token_id'?: (string);
}

export interface RevokeTokenRequest__Output {
  'token_id'?: (string);
}
