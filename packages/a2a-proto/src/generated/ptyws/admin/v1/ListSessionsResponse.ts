// Original file: proto/ptyws/admin/v1/admin.proto

import type { Session as _ptyws_admin_v1_Session, Session__Output as _ptyws_admin_v1_Session__Output } from '../../../ptyws/admin/v1/Session';

export interface ListSessionsResponse {
  'sessions'?: (_ptyws_admin_v1_Session)[];
}

export interface ListSessionsResponse__Output {
  'sessions'?: (_ptyws_admin_v1_Session__Output)[];
}
