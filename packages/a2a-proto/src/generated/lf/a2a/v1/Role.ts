// Original file: proto/lf/a2a/v1/a2a.proto

/**
 * Defines the sender of a message in A2A protocol communication.
 */
export const Role = {
  /**
   * The role is unspecified.
   */
  ROLE_UNSPECIFIED: 'ROLE_UNSPECIFIED',
  /**
   * The message is from the client to the server.
   */
  ROLE_USER: 'ROLE_USER',
  /**
   * The message is from the server to the client.
   */
  ROLE_AGENT: 'ROLE_AGENT',
} as const;

/**
 * Defines the sender of a message in A2A protocol communication.
 */
export type Role =
  /**
   * The role is unspecified.
   */
  | 'ROLE_UNSPECIFIED'
  | 0
  /**
   * The message is from the client to the server.
   */
  | 'ROLE_USER'
  | 1
  /**
   * The message is from the server to the client.
   */
  | 'ROLE_AGENT'
  | 2

/**
 * Defines the sender of a message in A2A protocol communication.
 */
export type Role__Output = typeof Role[keyof typeof Role]
