// Original file: proto/lf/a2a/v1/a2a.proto

import type { Artifact as _lf_a2a_v1_Artifact, Artifact__Output as _lf_a2a_v1_Artifact__Output } from '../../../lf/a2a/v1/Artifact';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

/**
 * A task delta where an artifact has been generated.
 */
export interface TaskArtifactUpdateEvent {
  /**
   * The ID of the task for this artifact.
   */
  'task_id'?: (string);
  /**
   * The ID of the context that this task belongs to.
   */
  'context_id'?: (string);
  /**
   * The artifact that was generated or updated.
   */
  'artifact'?: (_lf_a2a_v1_Artifact | null);
  /**
   * If true, the content of this artifact should be appended to a previously
   * sent artifact with the same ID.
   */
  'append'?: (boolean);
  /**
   * If true, this is the final chunk of the artifact.
   */
  'last_chunk'?: (boolean);
  /**
   * Optional. Metadata associated with the artifact update.
   */
  'metadata'?: (_google_protobuf_Struct | null);
}

/**
 * A task delta where an artifact has been generated.
 */
export interface TaskArtifactUpdateEvent__Output {
  /**
   * The ID of the task for this artifact.
   */
  'task_id'?: (string);
  /**
   * The ID of the context that this task belongs to.
   */
  'context_id'?: (string);
  /**
   * The artifact that was generated or updated.
   */
  'artifact'?: (_lf_a2a_v1_Artifact__Output);
  /**
   * If true, the content of this artifact should be appended to a previously
   * sent artifact with the same ID.
   */
  'append'?: (boolean);
  /**
   * If true, this is the final chunk of the artifact.
   */
  'last_chunk'?: (boolean);
  /**
   * Optional. Metadata associated with the artifact update.
   */
  'metadata'?: (_google_protobuf_Struct__Output);
}
