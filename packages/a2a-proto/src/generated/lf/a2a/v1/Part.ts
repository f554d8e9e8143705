// Original file: proto/lf/a2a/v1/a2a.proto

import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

/**
 * `Part` represents a container for a section of communication content.
 * Parts can be purely textual, some sort of file (image, video, etc) or
 * a structured data blob (i.e. JSON).
 */
export interface Part {
  /**
   * The string content of the `text` part.
   */
  'text'?: (string);
  /**
   * The `raw` byte content of a file. In JSON serialization, this is encoded as a base64 string.
   */
  'raw'?: (Buffer | Uint8Array | string);
  /**
   * A `url` pointing to the file's content.
   */
  'url'?: (string);
  /**
   * Arbitrary structured `data` as a JSON value (object, array, string, number, boolean, or null).
   */
  'data'?: (_google_protobuf_Value | null);
  /**
   * Optional. metadata associated with this part.
   */
  'metadata'?: (_google_protobuf_Struct | null);
  /**
   * An optional `filename` for the file (e.g., "document.pdf").
   */
  'filename'?: (string);
  /**
   * The `media_type` (MIME type) of the part content (e.g., "text/plain", "application/json", "image/png").
   * This field is available for all part types.
   */
  'media_type'?: (string);
  'content'?: "text"|"raw"|"url"|"data";
}

/**
 * `Part` represents a container for a section of communication content.
 * Parts can be purely textual, some sort of file (image, video, etc) or
 * a structured data blob (i.e. JSON).
 */
export interface Part__Output {
  /**
   * The string content of the `text` part.
   */
  'text'?: (string);
  /**
   * The `raw` byte content of a file. In JSON serialization, this is encoded as a base64 string.
   */
  'raw'?: (string);
  /**
   * A `url` pointing to the file's content.
   */
  'url'?: (string);
  /**
   * Arbitrary structured `data` as a JSON value (object, array, string, number, boolean, or null).
   */
  'data'?: (_google_protobuf_Value__Output);
  /**
   * Optional. metadata associated with this part.
   */
  'metadata'?: (_google_protobuf_Struct__Output);
  /**
   * An optional `filename` for the file (e.g., "document.pdf").
   */
  'filename'?: (string);
  /**
   * The `media_type` (MIME type) of the part content (e.g., "text/plain", "application/json", "image/png").
   * This field is available for all part types.
   */
  'media_type'?: (string);
  'content'?: "text"|"raw"|"url"|"data";
}
