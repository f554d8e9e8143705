// Original file: proto/google/api/client.proto

import type { CommonLanguageSettings as _google_api_CommonLanguageSettings, CommonLanguageSettings__Output as _google_api_CommonLanguageSettings__Output } from '../../google/api/CommonLanguageSettings';

/**
 * Settings for Php client libraries.
 */
export interface PhpSettings {
  /**
   * Some settings.
   */
  'common'?: (_google_api_CommonLanguageSettings | null);
  /**
   * The package name to use in Php. Clobbers the php_namespace option
   * set in the protobuf. This should be used **only** by APIs
   * who have already set the language_settings.php.package_name" field
   * in gapic.yaml. API teams should use the protobuf php_namespace option
   * where possible.
   * 
   * Example of a YAML configuration::
   * 
   * publishing:
   * library_settings:
   * php_settings:
   * library_package: Google\Cloud\PubSub\V1
   */
  'library_package'?: (string);
}

/**
 * Settings for Php client libraries.
 */
export interface PhpSettings__Output {
  /**
   * Some settings.
   */
  'common'?: (_google_api_CommonLanguageSettings__Output);
  /**
   * The package name to use in Php. Clobbers the php_namespace option
   * set in the protobuf. This should be used **only** by APIs
   * who have already set the language_settings.php.package_name" field
   * in gapic.yaml. API teams should use the protobuf php_namespace option
   * where possible.
   * 
   * Example of a YAML configuration::
   * 
   * publishing:
   * library_settings:
   * php_settings:
   * library_package: Google\Cloud\PubSub\V1
   */
  'library_package'?: (string);
}
