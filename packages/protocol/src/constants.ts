/** Identifiers fixed by the pty-ws/v1 binding and the pty-extensions/v1 extension. */
export const BINDING_URI = 'https://agentic-sandbox.aiwg.io/bindings/pty-ws/v1';
export const BINDING_VERSION = '1.0.0';
export const EXTENSION_URI = 'https://agentic-sandbox.aiwg.io/extensions/pty-extensions/v1';
export const EXTENSION_VERSION = '1.0.0';

export const SUBPROTOCOL_JSON = 'pty-ws.v1';
export const SUBPROTOCOL_BINARY = 'pty-ws.v1.binary';
/** Browsers cannot set Authorization on a WebSocket, so the token may ride as a subprotocol (binding §7.1). */
export const BEARER_SUBPROTOCOL_PREFIX = 'bearer.';

export const SNAPSHOT_FORMAT = 'vt100-screen-state-v1';

/** The six A2A core operations every implementation must support (binding §4). */
export const CORE_OPERATIONS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
] as const;

/** Resize bounds (docs/spec/README.md interpretation 5). */
export const MIN_COLS = 20;
export const MIN_ROWS = 5;
export const MAX_DIMENSION = 1024;

/** WebSocket close codes (binding §6). */
export const CloseCode = {
  NORMAL: 1000,
  /** RFC 6455: a message bigger than the endpoint accepts (PTYWS_MAX_FRAME_BYTES). */
  MESSAGE_TOO_BIG: 1009,
  SERVER_ERROR: 1011,
  PROTOCOL_VIOLATION: 4400,
  UNAUTHENTICATED: 4401,
  FORBIDDEN: 4403,
  NOT_FOUND: 4404,
  RATE_LIMITED: 4429,
} as const;

export type Scope = 'pty:observe' | 'pty:control' | 'pty:admin';
export const SCOPES: readonly Scope[] = ['pty:observe', 'pty:control', 'pty:admin'];
