// Original file: proto/ptyws/admin/v1/admin.proto

import type { Token as _ptyws_admin_v1_Token, Token__Output as _ptyws_admin_v1_Token__Output } from '../../../ptyws/admin/v1/Token';

export interface ListTokensResponse {
  'tokens'?: (_ptyws_admin_v1_Token)[];
}

export interface ListTokensResponse__Output {
  'tokens'?: (_ptyws_admin_v1_Token__Output)[];
}
