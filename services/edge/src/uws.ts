import type * as UWS from 'uWebSockets.js';

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
export type {
  HttpRequest,
  HttpResponse,
  TemplatedApp,
  WebSocket,
  WebSocketBehavior,
  us_listen_socket,
} from 'uWebSockets.js';
