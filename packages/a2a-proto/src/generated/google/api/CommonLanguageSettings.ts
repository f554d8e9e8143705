// Original file: proto/google/api/client.proto

import type { ClientLibraryDestination as _google_api_ClientLibraryDestination, ClientLibraryDestination__Output as _google_api_ClientLibraryDestination__Output } from '../../google/api/ClientLibraryDestination';
import type { SelectiveGapicGeneration as _google_api_SelectiveGapicGeneration, SelectiveGapicGeneration__Output as _google_api_SelectiveGapicGeneration__Output } from '../../google/api/SelectiveGapicGeneration';

/**
 * Required information for every language.
 */
export interface CommonLanguageSettings {
  /**
   * Link to automatically generated reference documentation.  Example:
   * https://cloud.google.com/nodejs/docs/reference/asset/latest
   * @deprecated
   */
  'reference_docs_uri'?: (string);
  /**
   * The destination where API teams want this client library to be published.
   */
  'destinations'?: (_google_api_ClientLibraryDestination)[];
  /**
   * Configuration for which RPCs should be generated in the GAPIC client.
   * 
   * Note: This field should not be used in most cases.
   */
  'selective_gapic_generation'?: (_google_api_SelectiveGapicGeneration | null);
}

/**
 * Required information for every language.
 */
export interface CommonLanguageSettings__Output {
  /**
   * Link to automatically generated reference documentation.  Example:
   * https://cloud.google.com/nodejs/docs/reference/asset/latest
   * @deprecated
   */
  'reference_docs_uri'?: (string);
  /**
   * The destination where API teams want this client library to be published.
   */
  'destinations'?: (_google_api_ClientLibraryDestination__Output)[];
  /**
   * Configuration for which RPCs should be generated in the GAPIC client.
   * 
   * Note: This field should not be used in most cases.
   */
  'selective_gapic_generation'?: (_google_api_SelectiveGapicGeneration__Output);
}
