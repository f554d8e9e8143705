// Original file: proto/ptyws/admin/v1/admin.proto

import type { Token as _ptyws_admin_v1_Token, Token__Output as _ptyws_admin_v1_Token__Output } from '../../../ptyws/admin/v1/Token';

export interface CreateTokenResponse {
  'token'?: (_ptyws_admin_v1_Token | null);
  /**
   * The bearer secret: shown once.
   */
  'secret'?: (string);
}

export interface CreateTokenResponse__Output {
  'token'?: (_ptyws_admin_v1_Token__Output);
  /**
   * The bearer secret: shown once.
   */
  'secret'?: (string);
}
