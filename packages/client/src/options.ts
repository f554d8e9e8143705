import type { PtyRole, ServiceParameters, SessionHostFields } from '@pty-ws/protocol';
import { BEARER_SUBPROTOCOL_PREFIX, SUBPROTOCOL_BINARY, SUBPROTOCOL_JSON } from '@pty-ws/protocol';
import { systemClock, type Clock } from './clock';
import { PtyWsError } from './errors';
import { base64UrlEncode, defaultWebSocket } from './runtime';
import type { WebSocketCtor, WebSocketCtorOptions } from './websocket';

/** `json`: everything as JSON text (`pty-ws.v1`). `binary`: PTY bytes as PW1O/PW1I frames (`pty-ws.v1.binary`). */
export type PayloadMode = 'json' | 'binary';

/**
 * `subprotocol`: `bearer.<base64url(token)>` offered next to the PTY subprotocol (works in browsers).
 * `header`: `Authorization: Bearer <token>` on the upgrade; needs a constructor that accepts headers
 * (the `ws` package), because browsers cannot set headers on a WebSocket.
 */
export type TokenTransport = 'subprotocol' | 'header';

export interface ReconnectOptions {
  /** Delay before the first attempt. Default 250 ms. */
  initialDelayMs?: number;
  /** Ceiling for the exponential delay. Default 10 s. */
  maxDelayMs?: number;
  /** Growth per attempt. Default 2. */
  factor?: number;
  /** ± fraction of randomisation so many clients do not reconnect in lockstep. Default 0.2. */
  jitter?: number;
  /** Attempts before giving up (then state `closed`, error RECONNECT_FAILED). Default unlimited. */
  maxAttempts?: number;
}

export interface PtyClientOptions {
  /** Full attach URL `ws(s)://host/agents/{instance}/sessions/{session}/attach`. */
  url?: string;
  /** Alternative to `url`: `ws(s)://` or `http(s)://` origin (optionally with a path prefix). */
  baseUrl?: string;
  instanceId?: string;
  sessionId?: string;
  /** Bearer token. Never put into the URL (binding §11). */
  token?: string;
  /** Default `subprotocol`. */
  tokenTransport?: TokenTransport;
  /** Default `json`. */
  mode?: PayloadMode;
  /** WebSocket constructor; defaults to `globalThis.WebSocket`. In Node 20 pass `require('ws')`. */
  WebSocket?: WebSocketCtor;
  /** Sent on the first frame of every connection (binding §9). */
  serviceParameters?: ServiceParameters;
  /** Extension URIs to activate besides pty-extensions/v1, which is always sent. */
  extensions?: string[];
  /** Default `client_label` for join(). */
  clientLabel?: string;
  /** Default requested role for join(); omitted lets the server choose (docs/spec/README.md interpretation 4). */
  role?: PtyRole;
  /** Reconnect after an unexpected close. Default true. */
  autoReconnect?: boolean | ReconnectOptions;
  /** Per-request timeout, including the wait for the connection to be open. Default 10 s. */
  requestTimeoutMs?: number;
  /** Upgrade + `binding_hello` timeout. Default 10 s. */
  connectTimeoutMs?: number;
  /** How long leave() waits for the server to close before closing itself. Default 3 s. */
  leaveTimeoutMs?: number;
  /**
   * Time source for every timeout and reconnect pause. Default: the runtime's clock and timers.
   * Tests pass a manual clock (any object with this shape, e.g. the services' Clock port).
   */
  clock?: Clock;
}

/** Options for join(): the extension's join fields plus the session-host fields of binding §5.1.1. */
export interface JoinOptions extends SessionHostFields {
  role?: PtyRole;
  cols?: number;
  rows?: number;
  /** `client_label`, ≤ 128 chars. */
  label?: string;
  /** Ask for replay of frames after this sequence (envelope `replay_from`). */
  replayFrom?: number;
}

export interface ResolvedOptions {
  url: string;
  mode: PayloadMode;
  protocols: string[];
  expectedProtocol: string;
  headers: Record<string, string> | undefined;
  WebSocket: WebSocketCtor;
  extensions: string[];
  reconnect: Required<ReconnectOptions> | undefined;
  requestTimeoutMs: number;
  connectTimeoutMs: number;
  leaveTimeoutMs: number;
  clock: Clock;
  role: PtyRole | undefined;
  clientLabel: string | undefined;
}

export const RECONNECT_DEFAULTS: Required<ReconnectOptions> = {
  initialDelayMs: 250,
  maxDelayMs: 10_000,
  factor: 2,
  jitter: 0.2,
  maxAttempts: Number.POSITIVE_INFINITY,
};

/** `ws(s)://host[/prefix]/agents/{instance}/sessions/{session}/attach` (binding §2.1). */
export function attachUrl(baseUrl: string, instanceId: string, sessionId: string): string {
  const base = baseUrl.replace(/^http(s?):\/\//i, 'ws$1://').replace(/\/+$/, '');
  return `${base}/agents/${encodeURIComponent(instanceId)}/sessions/${encodeURIComponent(sessionId)}/attach`;
}

/** The Sec-WebSocket-Protocol list: the PTY token first, then the bearer token when it rides there. */
export function subprotocols(mode: PayloadMode, token?: string, transport: TokenTransport = 'subprotocol'): string[] {
  const list = [mode === 'binary' ? SUBPROTOCOL_BINARY : SUBPROTOCOL_JSON];
  if (token !== undefined && transport === 'subprotocol') list.push(BEARER_SUBPROTOCOL_PREFIX + base64UrlEncode(token));
  return list;
}

function invalid(message: string): PtyWsError {
  return new PtyWsError('INVALID_ARGUMENT', message);
}

export function resolveOptions(o: PtyClientOptions): ResolvedOptions {
  let url = o.url;
  if (url === undefined) {
    if (!o.baseUrl || !o.instanceId || !o.sessionId) {
      throw invalid('pass either url, or baseUrl + instanceId + sessionId');
    }
    url = attachUrl(o.baseUrl, o.instanceId, o.sessionId);
  }
  if (!/^wss?:\/\//i.test(url)) throw invalid(`attach URL must be ws:// or wss://, got ${url}`);

  const transport = o.tokenTransport ?? 'subprotocol';
  // Browsers ignore a third constructor argument, so a header token would silently be dropped:
  // demand an explicitly injected constructor (the `ws` package) for that transport.
  if (o.token !== undefined && transport === 'header' && !o.WebSocket) {
    throw invalid(
      "tokenTransport 'header' needs an injected WebSocket constructor that accepts headers (the ws package)",
    );
  }
  const WebSocket = o.WebSocket ?? defaultWebSocket();
  if (!WebSocket) throw invalid('no WebSocket constructor: pass options.WebSocket (in Node 20: require("ws"))');

  const mode = o.mode ?? 'json';
  const headers: WebSocketCtorOptions['headers'] =
    o.token !== undefined && transport === 'header' ? { Authorization: `Bearer ${o.token}` } : undefined;
  const reconnect =
    o.autoReconnect === false
      ? undefined
      : { ...RECONNECT_DEFAULTS, ...(typeof o.autoReconnect === 'object' ? o.autoReconnect : {}) };

  return {
    url,
    mode,
    protocols: subprotocols(mode, o.token, transport),
    expectedProtocol: mode === 'binary' ? SUBPROTOCOL_BINARY : SUBPROTOCOL_JSON,
    headers,
    WebSocket,
    extensions: o.extensions ?? [],
    reconnect,
    requestTimeoutMs: o.requestTimeoutMs ?? 10_000,
    connectTimeoutMs: o.connectTimeoutMs ?? 10_000,
    leaveTimeoutMs: o.leaveTimeoutMs ?? 3_000,
    clock: o.clock ?? systemClock,
    role: o.role,
    clientLabel: o.clientLabel,
  };
}

/** Exponential backoff with jitter; `attempt` starts at 1. */
export function backoffDelay(
  attempt: number,
  r: Required<ReconnectOptions>,
  random: () => number = Math.random,
): number {
  const base = Math.min(r.maxDelayMs, r.initialDelayMs * r.factor ** Math.max(0, attempt - 1));
  const spread = base * r.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(base + spread));
}
