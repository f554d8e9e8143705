import type * as UWS from 'uWebSockets.js';
import type { RecognizedString, WebSocket } from 'uWebSockets.js';

/**
 * Loads native uWebSockets.js. The registry package silently falls back to a slow JS shim when
 * the native binary does not load; serving production traffic on the shim would be a quiet
 * 10× regression, so we refuse to start instead.
 */
function loadNative(): typeof UWS {
  if (/^(1|true)$/i.test(process.env['UWS_USE_FALLBACK'] ?? '')) {
    throw new Error('UWS_USE_FALLBACK is set: pty-ws requires native uWebSockets.js, refusing the JS shim');
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require('uWebSockets.js') as typeof UWS;
  let shim: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    shim = require('uWebSockets.js/dist/index.js');
  } catch {
    shim = undefined;
  }
  if (mod === shim) {
    throw new Error(
      `native uWebSockets.js failed to load for node ${process.version} (ABI ${process.versions.modules}, ` +
        `${process.platform}-${process.arch}); refusing to run on its JS fallback`,
    );
  }
  return mod;
}

export const uWS = loadNative();

/** WebSocket.send's and ping's answer when the message was dropped (backlog past maxBackpressure). */
export const SEND_DROPPED = 2;

/**
 * Sends one WebSocket message; the edge sends every message through here, never `ws.send`.
 *
 * This build of uWS (v20.30, the registry's only native one) writes a message of 16 KiB or more to
 * a socket with nothing buffered by one writev of its own, its direct path, and that path has two
 * bugs of uSockets, both seen here under a 100-observer flood:
 * - when the kernel takes less than the frame header (its send buffer is full), uWS keeps the header
 *   and drops the payload, so the peer reads the next frames as this one's payload and fails the
 *   connection (`ws`: "RSV2 and RSV3 must be clear"; fixed upstream after this build, uWebSockets PR #1662);
 * - a short write from the socket's own drain handler leaves its writable poll disarmed
 *   (`us_socket_write2` never sets `last_write_failed`), so what uWS buffered is never written and
 *   the reader waits for the rest of a frame for good (bun PR #38177).
 * With the compress hint, on a socket that negotiated no permessage-deflate, uWS skips that path
 * and sends the message uncompressed through its buffered one, which has neither bug (test:
 * uws-send.test.ts). Every WebSocket route of the edge negotiates no compression (edge-server.ts).
 * It costs a copy of each large message into the socket's buffer (uWS zero-fills room there, then
 * copies: ~10 % of the service's CPU in a 100-observer fan-out, 5–14 % more CPU per MB than the
 * direct path in alternating probes).
 */
export function sendMessage<T>(ws: WebSocket<T>, message: RecognizedString, isBinary: boolean): number {
  return ws.send(message, isBinary, true);
}

/** Sizes claimed by `claimUpgradeRemainder`: malloc's bins from 32- to 192-byte chunks. */
const REMAINDER_SIZES = [24, 40, 56, 72, 88, 104, 120, 136, 152, 168, 184];
/** The last claim, held until the next: alive until uWS's cork has returned. */
let _held: ArrayBuffer[] = [];

/**
 * Called first in a WebSocket `open` handler, while uWS is still inside `res.upgrade`.
 *
 * This build of uWS closes a socket upgraded inside `res.cork` (the edge's asynchronous upgrade)
 * right after its open event, with 1006 and no close frame, whenever an allocation made during that
 * event reuses the memory the upgrade freed. The upgrade shrinks the socket's allocation in place
 * from an HTTP response to a WebSocket and frees the tail; `cork` then fails to see that the socket
 * changed (it compares addresses only) and reads the response's `state` from that freed tail: a
 * value with its connection-close bit set and its pending bit clear, as the upper half of a heap
 * pointer has, makes it shut the new socket down (fixed upstream after this build, uWebSockets PR
 * #1929). Here the tail is a 96-byte chunk; any 73–88-byte allocation of the open event (V8,
 * Node, a NATS subscription) can take it. Zero-filled buffers taken first, two per bin around it (the
 * second in case another block of the bin was freed since), keep it zeroed until `cork` has read it (test: upgrade-remainder.test.ts).
 */
export function claimUpgradeRemainder(): void {
  _held = REMAINDER_SIZES.flatMap((n) => [new ArrayBuffer(n), new ArrayBuffer(n)]);
}

export type {
  RecognizedString,
  HttpRequest,
  HttpResponse,
  TemplatedApp,
  WebSocket,
  WebSocketBehavior,
  us_listen_socket,
} from 'uWebSockets.js';
