// Original file: proto/google/api/client.proto

import type { CommonLanguageSettings as _google_api_CommonLanguageSettings, CommonLanguageSettings__Output as _google_api_CommonLanguageSettings__Output } from '../../google/api/CommonLanguageSettings';

/**
 * Settings for Go client libraries.
 */
export interface GoSettings {
  /**
   * Some settings.
   */
  'common'?: (_google_api_CommonLanguageSettings | null);
  /**
   * Map of service names to renamed services. Keys are the package relative
   * service names and values are the name to be used for the service client
   * and call options.
   * 
   * Example:
   * 
   * publishing:
   * go_settings:
   * renamed_services:
   * Publisher: TopicAdmin
   */
  'renamed_services'?: ({[key: string]: string});
}

/**
 * Settings for Go client libraries.
 */
export interface GoSettings__Output {
  /**
   * Some settings.
   */
  'common'?: (_google_api_CommonLanguageSettings__Output);
  /**
   * Map of service names to renamed services. Keys are the package relative
   * service names and values are the name to be used for the service client
   * and call options.
   * 
   * Example:
   * 
   * publishing:
   * go_settings:
   * renamed_services:
   * Publisher: TopicAdmin
   */
  'renamed_services'?: ({[key: string]: string});
}
