// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Represents the service provider of an agent.
 */
export interface AgentProvider {
  /**
   * A URL for the agent provider's website or relevant documentation.
   * Example: "https://ai.google.dev"
   */
  'url'?: (string);
  /**
   * The name of the agent provider's organization.
   * Example: "Google"
   */
  'organization'?: (string);
}

/**
 * Represents the service provider of an agent.
 */
export interface AgentProvider__Output {
  /**
   * A URL for the agent provider's website or relevant documentation.
   * Example: "https://ai.google.dev"
   */
  'url'?: (string);
  /**
   * The name of the agent provider's organization.
   * Example: "Google"
   */
  'organization'?: (string);
}
