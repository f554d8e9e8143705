// Original file: proto/lf/a2a/v1/a2a.proto

import type { Part as _lf_a2a_v1_Part, Part__Output as _lf_a2a_v1_Part__Output } from '../../../lf/a2a/v1/Part';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

/**
 * Artifacts represent task outputs.
 */
export interface Artifact {
  /**
   * Unique identifier (e.g. UUID) for the artifact. It must be unique within a task.
   */
  'artifact_id'?: (string);
  /**
   * A human readable name for the artifact.
   */
  'name'?: (string);
  /**
   * Optional. A human readable description of the artifact.
   */
  'description'?: (string);
  /**
   * The content of the artifact. Must contain at least one part.
   */
  'parts'?: (_lf_a2a_v1_Part)[];
  /**
   * Optional. Metadata included with the artifact.
   */
  'metadata'?: (_google_protobuf_Struct | null);
  /**
   * The URIs of extensions that are present or contributed to this Artifact.
   */
  'extensions'?: (string)[];
}

/**
 * Artifacts represent task outputs.
 */
export interface Artifact__Output {
  /**
   * Unique identifier (e.g. UUID) for the artifact. It must be unique within a task.
   */
  'artifact_id'?: (string);
  /**
   * A human readable name for the artifact.
   */
  'name'?: (string);
  /**
   * Optional. A human readable description of the artifact.
   */
  'description'?: (string);
  /**
   * The content of the artifact. Must contain at least one part.
   */
  'parts'?: (_lf_a2a_v1_Part__Output)[];
  /**
   * Optional. Metadata included with the artifact.
   */
  'metadata'?: (_google_protobuf_Struct__Output);
  /**
   * The URIs of extensions that are present or contributed to this Artifact.
   */
  'extensions'?: (string)[];
}
