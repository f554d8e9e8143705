// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * protolint:disable REPEATED_FIELD_NAMES_PLURALIZED
 * A list of strings.
 */
export interface StringList {
  /**
   * The individual string values.
   */
  'list'?: (string)[];
}

/**
 * protolint:disable REPEATED_FIELD_NAMES_PLURALIZED
 * A list of strings.
 */
export interface StringList__Output {
  /**
   * The individual string values.
   */
  'list'?: (string)[];
}
