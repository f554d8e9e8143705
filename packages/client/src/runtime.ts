/**
 * Platform helpers that exist in both browsers and Node without importing Node modules or relying
 * on DOM/Node type declarations. Timers live in clock.ts.
 */
import { encodeBase64, utf8 } from '@pty-ws/protocol';
import type { WebSocketCtor } from './websocket';

interface RuntimeGlobals {
  queueMicrotask(cb: () => void): void;
  WebSocket?: WebSocketCtor;
  TextDecoder?: new (label?: string) => { decode(input?: Uint8Array): string };
}

function runtime(): RuntimeGlobals {
  return globalThis as unknown as RuntimeGlobals;
}

/** Reports an error to the host (uncaught-exception handler / console) without unwinding the caller. */
export function rethrowAsync(err: unknown): void {
  runtime().queueMicrotask(() => {
    throw err;
  });
}

export function defaultWebSocket(): WebSocketCtor | undefined {
  return runtime().WebSocket;
}

let decoder: { decode(input?: Uint8Array): string } | undefined;
export function decodeUtf8(bytes: Uint8Array): string {
  const Decoder = runtime().TextDecoder;
  if (!Decoder) throw new Error('TextDecoder is not available in this runtime');
  decoder ??= new Decoder('utf-8');
  return decoder.decode(bytes);
}

/**
 * base64url without padding (RFC 4648 §5): `=` is not a legal token character in
 * Sec-WebSocket-Protocol, and the server base64url-decodes the `bearer.` value (binding §7.1).
 */
export function base64UrlEncode(text: string): string {
  return encodeBase64(utf8(text)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
