// Original file: proto/ptyws/admin/v1/admin.proto

import type { Long } from '@grpc/proto-loader';

/**
 * The frame log bounds of a session: the `replay_from` values that can be replayed.
 */
export interface ReplayWindow {
  'first_sequence'?: (number | string | Long);
  'last_sequence'?: (number | string | Long);
  'hot_window_misses'?: (number | string | Long);
}

/**
 * The frame log bounds of a session: the `replay_from` values that can be replayed.
 */
export interface ReplayWindow__Output {
  'first_sequence'?: (string);
  'last_sequence'?: (string);
  'hot_window_misses'?: (string);
}
