/** The WebSocket upgrade as a test makes it: subprotocols, bearer tokens, and its HTTP outcome. */
import WebSocket from 'ws';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { BEARER_SUBPROTOCOL_PREFIX, SUBPROTOCOL_JSON, type ServiceParameters } from '@pty-ws/protocol';

export interface ConnectOptions {
  /** Requested subprotocols; default [`pty-ws.v1`]; `null` sends no Sec-WebSocket-Protocol header. */
  protocols?: string[] | null;
  /** Bearer token sent as `Authorization: Bearer …` (default: none). */
  token?: string;
  /** Bearer token sent as a `bearer.<base64url>` subprotocol instead. */
  subprotocolToken?: string;
  headers?: Record<string, string>;
  /** false: do not answer WebSocket pings (simulates a dead or frozen peer). Default true. */
  autoPong?: boolean;
  /** `extensions` put on the first frame this client sends; default [pty-extensions/v1]. */
  extensions?: string[] | null;
  /** `service_parameters` put on the first frame this client sends. */
  serviceParameters?: ServiceParameters;
  /** Upgrade timeout. */
  timeoutMs?: number;
}

export class UpgradeRejected extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: IncomingMessage['headers'],
  ) {
    super(`upgrade rejected with HTTP ${status}: ${body.slice(0, 200)}`);
  }
}

/** `bearer.<base64url(token)>` (binding §7.1). */
export function bearerSubprotocol(token: string): string {
  return BEARER_SUBPROTOCOL_PREFIX + Buffer.from(token, 'utf8').toString('base64url');
}

export function protocolsOf(opts: ConnectOptions): string[] | undefined {
  const base = opts.protocols === null ? [] : (opts.protocols ?? [SUBPROTOCOL_JSON]);
  const all = opts.subprotocolToken ? [...base, bearerSubprotocol(opts.subprotocolToken)] : base;
  return all.length > 0 ? all : undefined;
}

export function headersOf(opts: ConnectOptions): Record<string, string> {
  const h: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token !== undefined) h['Authorization'] = `Bearer ${opts.token}`;
  return h;
}

export interface UpgradeOutcome {
  /** 101 when the upgrade succeeded. */
  status: number;
  /** Raw `Sec-WebSocket-Protocol` response header (undefined when absent). */
  protocolHeader: string | undefined;
  body: string;
}

/** Attempts an upgrade and reports the HTTP outcome; a successful socket is closed at once. */
export function tryUpgrade(url: string, opts: ConnectOptions = {}): Promise<UpgradeOutcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocolsOf(opts), {
      headers: headersOf(opts),
      handshakeTimeout: opts.timeoutMs ?? 5000,
    });
    let protocolHeader: string | undefined;
    ws.on('upgrade', (res: IncomingMessage) => {
      const h = res.headers['sec-websocket-protocol'];
      protocolHeader = Array.isArray(h) ? h.join(', ') : h;
    });
    ws.on('open', () => {
      resolve({ status: 101, protocolHeader, body: '' });
      ws.terminate();
    });
    ws.on('unexpected-response', (req: ClientRequest, res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        // With an 'unexpected-response' listener ws leaves the request open: end it ourselves.
        req.destroy();
        req.socket?.destroy();
        resolve({
          status: res.statusCode ?? 0,
          protocolHeader: undefined,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', () => {
        req.destroy();
        req.socket?.destroy();
        resolve({ status: res.statusCode ?? 0, protocolHeader: undefined, body: '' });
      });
    });
    ws.on('error', (err: Error) => {
      // An upgrade that succeeded at HTTP level but failed the client's checks (e.g. the server
      // echoed a subprotocol we did not offer) lands here after 'upgrade'.
      if (protocolHeader !== undefined) resolve({ status: 101, protocolHeader, body: `client error: ${err.message}` });
      else reject(err);
    });
  });
}
