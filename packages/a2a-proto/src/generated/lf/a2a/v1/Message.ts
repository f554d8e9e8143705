// Original file: proto/lf/a2a/v1/a2a.proto

import type { Role as _lf_a2a_v1_Role, Role__Output as _lf_a2a_v1_Role__Output } from '../../../lf/a2a/v1/Role';
import type { Part as _lf_a2a_v1_Part, Part__Output as _lf_a2a_v1_Part__Output } from '../../../lf/a2a/v1/Part';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

/**
 * `Message` is one unit of communication between client and server. It can be
 * associated with a context and/or a task. For server messages, `context_id` must
 * be provided, and `task_id` only if a task was created. For client messages, both
 * fields are optional, with the caveat that if both are provided, they have to
 * match (the `context_id` has to be the one that is set on the task). If only
 * `task_id` is provided, the server will infer `context_id` from it.
 */
export interface Message {
  /**
   * The unique identifier (e.g. UUID) of the message. This is created by the message creator.
   */
  'message_id'?: (string);
  /**
   * Optional. The context id of the message. If set, the message will be associated with the given context.
   */
  'context_id'?: (string);
  /**
   * Optional. The task id of the message. If set, the message will be associated with the given task.
   */
  'task_id'?: (string);
  /**
   * Identifies the sender of the message.
   */
  'role'?: (_lf_a2a_v1_Role);
  /**
   * Parts is the container of the message content.
   */
  'parts'?: (_lf_a2a_v1_Part)[];
  /**
   * Optional. Any metadata to provide along with the message.
   */
  'metadata'?: (_google_protobuf_Struct | null);
  /**
   * The URIs of extensions that are present or contributed to this Message.
   */
  'extensions'?: (string)[];
  /**
   * A list of task IDs that this message references for additional context.
   */
  'reference_task_ids'?: (string)[];
}

/**
 * `Message` is one unit of communication between client and server. It can be
 * associated with a context and/or a task. For server messages, `context_id` must
 * be provided, and `task_id` only if a task was created. For client messages, both
 * fields are optional, with the caveat that if both are provided, they have to
 * match (the `context_id` has to be the one that is set on the task). If only
 * `task_id` is provided, the server will infer `context_id` from it.
 */
export interface Message__Output {
  /**
   * The unique identifier (e.g. UUID) of the message. This is created by the message creator.
   */
  'message_id'?: (string);
  /**
   * Optional. The context id of the message. If set, the message will be associated with the given context.
   */
  'context_id'?: (string);
  /**
   * Optional. The task id of the message. If set, the message will be associated with the given task.
   */
  'task_id'?: (string);
  /**
   * Identifies the sender of the message.
   */
  'role'?: (_lf_a2a_v1_Role__Output);
  /**
   * Parts is the container of the message content.
   */
  'parts'?: (_lf_a2a_v1_Part__Output)[];
  /**
   * Optional. Any metadata to provide along with the message.
   */
  'metadata'?: (_google_protobuf_Struct__Output);
  /**
   * The URIs of extensions that are present or contributed to this Message.
   */
  'extensions'?: (string)[];
  /**
   * A list of task IDs that this message references for additional context.
   */
  'reference_task_ids'?: (string)[];
}
