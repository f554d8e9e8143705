/**
 * @pty-ws/client — a typed, transport-only SDK for pty-ws/v1 + pty-extensions/v1. No Node-only
 * imports: inject a WebSocket constructor (`require('ws')` in Node 20; browsers use the global).
 */
export { INPUT_CHUNK_BYTES, PtyClient, type ListTasksResult, type PingResult, type RequestOptions } from './pty-client';
export { PtyWsError, isPtyWsError, fatalCloseError, type ClientErrorCode, type PtyWsErrorCode } from './errors';
export type * from './events';
export {
  attachUrl,
  subprotocols,
  backoffDelay,
  RECONNECT_DEFAULTS,
  type JoinOptions,
  type PayloadMode,
  type PtyClientOptions,
  type ReconnectOptions,
  type TokenTransport,
} from './options';
export { TaskStream, type TaskStreamEvents, type TaskUpdate } from './tasks';
export { Emitter, type Listener } from './emitter';
export { textMessage } from './messages';
export { base64UrlEncode } from './runtime';
export type { WebSocketCtor, WebSocketCtorOptions, WebSocketLike } from './websocket';
export type { Clock, ClockTimer } from './clock';
