// Original file: proto/google/api/client.proto

import type { CommonLanguageSettings as _google_api_CommonLanguageSettings, CommonLanguageSettings__Output as _google_api_CommonLanguageSettings__Output } from '../../google/api/CommonLanguageSettings';

/**
 * Experimental features to be included during client library generation.
 * These fields will be deprecated once the feature graduates and is enabled
 * by default.
 */
export interface _google_api_PythonSettings_ExperimentalFeatures {
  /**
   * Enables generation of asynchronous REST clients if `rest` transport is
   * enabled. By default, asynchronous REST clients will not be generated.
   * This feature will be enabled by default 1 month after launching the
   * feature in preview packages.
   */
  'rest_async_io_enabled'?: (boolean);
  /**
   * Enables generation of protobuf code using new types that are more
   * Pythonic which are included in `protobuf>=5.29.x`. This feature will be
   * enabled by default 1 month after launching the feature in preview
   * packages.
   */
  'protobuf_pythonic_types_enabled'?: (boolean);
  /**
   * Disables generation of an unversioned Python package for this client
   * library. This means that the module names will need to be versioned in
   * import statements. For example `import google.cloud.library_v2` instead
   * of `import google.cloud.library`.
   */
  'unversioned_package_disabled'?: (boolean);
}

/**
 * Experimental features to be included during client library generation.
 * These fields will be deprecated once the feature graduates and is enabled
 * by default.
 */
export interface _google_api_PythonSettings_ExperimentalFeatures__Output {
  /**
   * Enables generation of asynchronous REST clients if `rest` transport is
   * enabled. By default, asynchronous REST clients will not be generated.
   * This feature will be enabled by default 1 month after launching the
   * feature in preview packages.
   */
  'rest_async_io_enabled'?: (boolean);
  /**
   * Enables generation of protobuf code using new types that are more
   * Pythonic which are included in `protobuf>=5.29.x`. This feature will be
   * enabled by default 1 month after launching the feature in preview
   * packages.
   */
  'protobuf_pythonic_types_enabled'?: (boolean);
  /**
   * Disables generation of an unversioned Python package for this client
   * library. This means that the module names will need to be versioned in
   * import statements. For example `import google.cloud.library_v2` instead
   * of `import google.cloud.library`.
   */
  'unversioned_package_disabled'?: (boolean);
}

/**
 * Settings for Python client libraries.
 */
export interface PythonSettings {
  /**
   * Some settings.
   */
  'common'?: (_google_api_CommonLanguageSettings | null);
  /**
   * Experimental features to be included during client library generation.
   */
  'experimental_features'?: (_google_api_PythonSettings_ExperimentalFeatures | null);
}

/**
 * Settings for Python client libraries.
 */
export interface PythonSettings__Output {
  /**
   * Some settings.
   */
  'common'?: (_google_api_CommonLanguageSettings__Output);
  /**
   * Experimental features to be included during client library generation.
   */
  'experimental_features'?: (_google_api_PythonSettings_ExperimentalFeatures__Output);
}
