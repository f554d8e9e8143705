/**
 * The slice of the WebSocket API the SDK uses. Declared here (not taken from DOM or `ws` types) so
 * the package builds with `types: []` and runs in browsers and in Node with the `ws` package.
 *
 * Handler properties take `(ev: never) => void`: that makes both the DOM `WebSocket` and the `ws`
 * class structurally assignable (their event types differ), while the SDK still installs handlers
 * with its own event shapes and checks them at run time.
 */
export interface WebSocketLike {
  readonly readyState: number;
  /** The subprotocol the server selected ('' when none). */
  readonly protocol: string;
  binaryType: string;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: never) => void) | null;
  onmessage: ((ev: never) => void) | null;
  onclose: ((ev: never) => void) | null;
  onerror: ((ev: never) => void) | null;
}

/** Options passed as the third constructor argument; only the `ws` package honours them. */
export interface WebSocketCtorOptions {
  headers?: Record<string, string>;
}

/** `globalThis.WebSocket` in browsers, `require('ws')` in Node 20. */
export type WebSocketCtor = new (
  url: string,
  protocols?: string | string[],
  options?: WebSocketCtorOptions,
) => WebSocketLike;

export const WS_OPEN = 1;

/** The event shapes the SDK reads; validated at run time because the socket is injected. */
export interface MessageEventLike {
  data: unknown;
}
export interface CloseEventLike {
  code?: number;
  reason?: string;
}
