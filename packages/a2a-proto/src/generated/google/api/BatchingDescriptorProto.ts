// Original file: proto/google/api/client.proto


/**
 * `BatchingDescriptorProto` specifies the fields of the request message to be
 * used for batching, and, optionally, the fields of the response message to be
 * used for demultiplexing.
 */
export interface BatchingDescriptorProto {
  /**
   * The repeated field in the request message to be aggregated by batching.
   */
  'batched_field'?: (string);
  /**
   * A list of the fields in the request message. Two requests will be batched
   * together only if the values of every field specified in
   * `request_discriminator_fields` is equal between the two requests.
   */
  'discriminator_fields'?: (string)[];
  /**
   * Optional. When present, indicates the field in the response message to be
   * used to demultiplex the response into multiple response messages, in
   * correspondence with the multiple request messages originally batched
   * together.
   */
  'subresponse_field'?: (string);
}

/**
 * `BatchingDescriptorProto` specifies the fields of the request message to be
 * used for batching, and, optionally, the fields of the response message to be
 * used for demultiplexing.
 */
export interface BatchingDescriptorProto__Output {
  /**
   * The repeated field in the request message to be aggregated by batching.
   */
  'batched_field'?: (string);
  /**
   * A list of the fields in the request message. Two requests will be batched
   * together only if the values of every field specified in
   * `request_discriminator_fields` is equal between the two requests.
   */
  'discriminator_fields'?: (string)[];
  /**
   * Optional. When present, indicates the field in the response message to be
   * used to demultiplex the response into multiple response messages, in
   * correspondence with the multiple request messages originally batched
   * together.
   */
  'subresponse_field'?: (string);
}
