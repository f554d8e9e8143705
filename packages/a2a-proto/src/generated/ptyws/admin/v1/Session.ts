// Original file: proto/ptyws/admin/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';
import type { ReplayWindow as _ptyws_admin_v1_ReplayWindow, ReplayWindow__Output as _ptyws_admin_v1_ReplayWindow__Output } from '../../../ptyws/admin/v1/ReplayWindow';

/**
 * A session as the REST API shows it.
 */
export interface Session {
  'session_id'?: (string);
  'instance_id'?: (string);
  /**
   * The agent that owns the session.
   */
  'agent_id'?: (string);
  /**
   * `starting`, `running` or `closed`.
   */
  'state'?: (string);
  'argv'?: (string)[];
  'cwd'?: (string);
  'cols'?: (number);
  'rows'?: (number);
  /**
   * `native`, `tmux` or `screen`.
   */
  'session_backend'?: (string);
  /**
   * `ephemeral` or `managed`.
   */
  'session_class'?: (string);
  'pid'?: (number);
  'created_at'?: (_google_protobuf_Timestamp | null);
  'closed_at'?: (_google_protobuf_Timestamp | null);
  'exit_code'?: (number);
  'closed_reason'?: (string);
  /**
   * The WebSocket URL to attach to this session (pty-ws/v1).
   */
  'attach_url'?: (string);
  'replay'?: (_ptyws_admin_v1_ReplayWindow | null);
  '_pid'?: "pid";
  '_exit_code'?: "exit_code";
  '_closed_reason'?: "closed_reason";
}

/**
 * A session as the REST API shows it.
 */
export interface Session__Output {
  'session_id'?: (string);
  'instance_id'?: (string);
  /**
   * The agent that owns the session.
   */
  'agent_id'?: (string);
  /**
   * `starting`, `running` or `closed`.
   */
  'state'?: (string);
  'argv'?: (string)[];
  'cwd'?: (string);
  'cols'?: (number);
  'rows'?: (number);
  /**
   * `native`, `tmux` or `screen`.
   */
  'session_backend'?: (string);
  /**
   * `ephemeral` or `managed`.
   */
  'session_class'?: (string);
  'pid'?: (number);
  'created_at'?: (_google_protobuf_Timestamp__Output);
  'closed_at'?: (_google_protobuf_Timestamp__Output);
  'exit_code'?: (number);
  'closed_reason'?: (string);
  /**
   * The WebSocket URL to attach to this session (pty-ws/v1).
   */
  'attach_url'?: (string);
  'replay'?: (_ptyws_admin_v1_ReplayWindow__Output);
  '_pid'?: "pid";
  '_exit_code'?: "exit_code";
  '_closed_reason'?: "closed_reason";
}
