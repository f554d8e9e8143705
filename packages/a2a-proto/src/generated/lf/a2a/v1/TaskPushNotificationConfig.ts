// Original file: proto/lf/a2a/v1/a2a.proto

import type { AuthenticationInfo as _lf_a2a_v1_AuthenticationInfo, AuthenticationInfo__Output as _lf_a2a_v1_AuthenticationInfo__Output } from '../../../lf/a2a/v1/AuthenticationInfo';

/**
 * A container associating a push notification configuration with a specific task.
 */
export interface TaskPushNotificationConfig {
  /**
   * Optional. Tenant ID.
   */
  'tenant'?: (string);
  /**
   * The push notification configuration details.
   * A unique identifier (e.g. UUID) for this push notification configuration.
   */
  'id'?: (string);
  /**
   * The ID of the task this configuration is associated with.
   */
  'task_id'?: (string);
  /**
   * The URL where the notification should be sent.
   */
  'url'?: (string);
  /**
   * A token unique for this task or session.
   */
  'token'?: (string);
  /**
   * Authentication information required to send the notification.
   */
  'authentication'?: (_lf_a2a_v1_AuthenticationInfo | null);
}

/**
 * A container associating a push notification configuration with a specific task.
 */
export interface TaskPushNotificationConfig__Output {
  /**
   * Optional. Tenant ID.
   */
  'tenant'?: (string);
  /**
   * The push notification configuration details.
   * A unique identifier (e.g. UUID) for this push notification configuration.
   */
  'id'?: (string);
  /**
   * The ID of the task this configuration is associated with.
   */
  'task_id'?: (string);
  /**
   * The URL where the notification should be sent.
   */
  'url'?: (string);
  /**
   * A token unique for this task or session.
   */
  'token'?: (string);
  /**
   * Authentication information required to send the notification.
   */
  'authentication'?: (_lf_a2a_v1_AuthenticationInfo__Output);
}
