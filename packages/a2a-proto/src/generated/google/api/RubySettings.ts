// Original file: proto/google/api/client.proto

import type { CommonLanguageSettings as _google_api_CommonLanguageSettings, CommonLanguageSettings__Output as _google_api_CommonLanguageSettings__Output } from '../../google/api/CommonLanguageSettings';

/**
 * Settings for Ruby client libraries.
 */
export interface RubySettings {
  /**
   * Some settings.
   */
  'common'?: (_google_api_CommonLanguageSettings | null);
}

/**
 * Settings for Ruby client libraries.
 */
export interface RubySettings__Output {
  /**
   * Some settings.
   */
  'common'?: (_google_api_CommonLanguageSettings__Output);
}
