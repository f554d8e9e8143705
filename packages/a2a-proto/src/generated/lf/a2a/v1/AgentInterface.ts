// Original file: proto/lf/a2a/v1/a2a.proto


/**
 * Declares a combination of a target URL, transport and protocol version for interacting with the agent.
 * This allows agents to expose the same functionality over multiple protocol binding mechanisms.
 */
export interface AgentInterface {
  /**
   * The URL where this interface is available. Must be a valid absolute HTTPS URL in production.
   * Example: "https://api.example.com/a2a/v1", "https://grpc.example.com/a2a"
   */
  'url'?: (string);
  /**
   * The protocol binding supported at this URL. This is an open form string, to be
   * easily extended for other protocol bindings. The core ones officially
   * supported are `JSONRPC`, `GRPC` and `HTTP+JSON`.
   */
  'protocol_binding'?: (string);
  /**
   * Tenant ID to be used in the request when calling the agent.
   */
  'tenant'?: (string);
  /**
   * The version of the A2A protocol this interface exposes.
   * Use the latest supported minor version per major version.
   * Examples: "0.3", "1.0"
   */
  'protocol_version'?: (string);
}

/**
 * Declares a combination of a target URL, transport and protocol version for interacting with the agent.
 * This allows agents to expose the same functionality over multiple protocol binding mechanisms.
 */
export interface AgentInterface__Output {
  /**
   * The URL where this interface is available. Must be a valid absolute HTTPS URL in production.
   * Example: "https://api.example.com/a2a/v1", "https://grpc.example.com/a2a"
   */
  'url'?: (string);
  /**
   * The protocol binding supported at this URL. This is an open form string, to be
   * easily extended for other protocol bindings. The core ones officially
   * supported are `JSONRPC`, `GRPC` and `HTTP+JSON`.
   */
  'protocol_binding'?: (string);
  /**
   * Tenant ID to be used in the request when calling the agent.
   */
  'tenant'?: (string);
  /**
   * The version of the A2A protocol this interface exposes.
   * Use the latest supported minor version per major version.
   * Examples: "0.3", "1.0"
   */
  'protocol_version'?: (string);
}
