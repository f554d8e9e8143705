import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { exitCodeForStatus } from './errors';
import { CliError, ExitCode } from './exit-codes';
import type { Settings } from './settings';

const TIMEOUT_MS = 15_000;

export interface RestResponse {
  status: number;
  body: unknown;
  /** The body as text (for non-JSON answers such as an asciicast export). */
  text: string;
}

export interface RestOptions {
  /** JSON request body. */
  json?: unknown;
  timeoutMs?: number;
  /** Send no Authorization header (public endpoints such as the AgentCard). */
  anonymous?: boolean;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `{error: {code, message}}` bodies become "message (CODE, HTTP 404)". */
function describeFailure(method: string, path: string, res: RestResponse): string {
  const err = isRecord(res.body) ? res.body['error'] : undefined;
  if (isRecord(err) && typeof err['message'] === 'string') {
    const code = typeof err['code'] === 'string' ? `${err['code']}, ` : '';
    return `${err['message']} (${code}HTTP ${res.status})`;
  }
  return `${method} ${path} failed with HTTP ${res.status}`;
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

/**
 * One request on its own connection. No keep-alive pool: the CLI makes a handful of requests and
 * a pooled socket would only keep the process alive after the work is done.
 */
export function send(settings: Settings, method: string, path: string, opts: RestOptions = {}): Promise<RestResponse> {
  const url = new URL(settings.baseUrl + path);
  const headers: Record<string, string> = { Accept: 'application/json', Connection: 'close' };
  // The token rides in a header only; it is never part of the URL (binding §11).
  if (settings.token !== undefined && !opts.anonymous) headers['Authorization'] = `Bearer ${settings.token}`;
  const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      readBody(res).then((text) => {
        let parsed: unknown;
        try {
          parsed = text.length > 0 ? (JSON.parse(text) as unknown) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, text });
      }, reject);
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(new CliError(ExitCode.FAILURE, `${method} ${url.origin}${path}: no answer within ${timeoutMs} ms`)),
    );
    req.on('error', (err: Error) => {
      if (err instanceof CliError) return reject(err);
      const code = (err as { code?: unknown }).code;
      const why = typeof code === 'string' ? code : err.message;
      reject(new CliError(ExitCode.FAILURE, `cannot reach ${url.origin}: ${why}`));
    });
    req.end(body);
  });
}

/** Sends a request and returns its JSON body, or throws a CliError whose exit code follows the status. */
export async function call(settings: Settings, method: string, path: string, opts: RestOptions = {}): Promise<unknown> {
  return (await callRaw(settings, method, path, opts)).body;
}

/** Like `call`, with the whole response (its text too). */
export async function callRaw(
  settings: Settings,
  method: string,
  path: string,
  opts: RestOptions = {},
): Promise<RestResponse> {
  const res = await send(settings, method, path, opts);
  if (res.status >= 200 && res.status < 300) return res;
  const hint = res.status === 401 && settings.token === undefined ? '; no token given: use --token or PTYWS_TOKEN' : '';
  throw new CliError(exitCodeForStatus(res.status), describeFailure(method, path, res) + hint);
}
