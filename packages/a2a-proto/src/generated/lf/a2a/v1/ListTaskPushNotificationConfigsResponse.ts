// Original file: proto/lf/a2a/v1/a2a.proto

import type { TaskPushNotificationConfig as _lf_a2a_v1_TaskPushNotificationConfig, TaskPushNotificationConfig__Output as _lf_a2a_v1_TaskPushNotificationConfig__Output } from '../../../lf/a2a/v1/TaskPushNotificationConfig';

/**
 * Represents a successful response for the `ListTaskPushNotificationConfigs`
 * method.
 */
export interface ListTaskPushNotificationConfigsResponse {
  /**
   * The list of push notification configurations.
   */
  'configs'?: (_lf_a2a_v1_TaskPushNotificationConfig)[];
  /**
   * A token to retrieve the next page of results, or empty if there are no more results in the list.
   */
  'next_page_token'?: (string);
}

/**
 * Represents a successful response for the `ListTaskPushNotificationConfigs`
 * method.
 */
export interface ListTaskPushNotificationConfigsResponse__Output {
  /**
   * The list of push notification configurations.
   */
  'configs'?: (_lf_a2a_v1_TaskPushNotificationConfig__Output)[];
  /**
   * A token to retrieve the next page of results, or empty if there are no more results in the list.
   */
  'next_page_token'?: (string);
}
