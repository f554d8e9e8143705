/** REST helpers for the control plane of the interface contract. */
import type { Scope } from '@pty-ws/protocol';
import { request } from 'node:http';
import type { TestServer } from './server';

/**
 * One request on its own connection (no keep-alive pool: fetch's pooled sockets outlive a
 * stopped server and keep the test process alive).
 */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, Connection: 'close' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve({ status: res.statusCode ?? 0, headers: h, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
}

export interface HttpOptions {
  /** JSON body (serialized). */
  json?: unknown;
  /** Body sent verbatim with content-type application/json. */
  rawBody?: string;
  /** Bearer token; default the server's admin token; null sends none. */
  token?: string | null;
  headers?: Record<string, string>;
}

export async function http(
  server: TestServer,
  method: string,
  path: string,
  opts: HttpOptions = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const token = opts.token === undefined ? server.adminToken : opts.token;
  if (token !== null) headers['Authorization'] = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.json !== undefined) body = JSON.stringify(opts.json);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await send(server.httpUrl + path, method, headers, body);
  const text = res.text;
  let parsed: unknown;
  try {
    parsed = text.length > 0 ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export interface CreateSessionBody {
  argv?: string[];
  command?: string;
  cwd?: string;
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  session_backend?: string;
  session_class?: string;
}

export interface CreatedSession {
  session_id: string;
  instance_id: string;
  attach_url: string;
  [k: string]: unknown;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function createSession(server: TestServer, body: CreateSessionBody = {}): Promise<CreatedSession> {
  const res = await http(server, 'POST', '/api/v1/sessions', { json: body });
  const b = res.body;
  if (res.status !== 201 || !isRecord(b) || typeof b['session_id'] !== 'string') {
    throw new Error(`POST /api/v1/sessions → ${res.status} ${res.text.slice(0, 300)}`);
  }
  return b as CreatedSession;
}

export interface MintTokenBody {
  scopes: Scope[] | string[];
  instance_id?: string;
  session_id?: string;
  ttl_seconds?: number;
  label?: string;
}

export interface MintedToken {
  token: string;
  token_id: string;
  [k: string]: unknown;
}

export async function mintToken(server: TestServer, body: MintTokenBody): Promise<MintedToken> {
  const res = await http(server, 'POST', '/api/v1/tokens', { json: { instance_id: server.instanceId, ...body } });
  const b = res.body;
  if (
    res.status < 200 ||
    res.status > 201 ||
    !isRecord(b) ||
    typeof b['token'] !== 'string' ||
    typeof b['token_id'] !== 'string'
  ) {
    throw new Error(`POST /api/v1/tokens → ${res.status} ${res.text.slice(0, 300)}`);
  }
  return b as MintedToken;
}

export { isRecord };
