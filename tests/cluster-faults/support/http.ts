import { request } from 'node:http';

export interface TimedResponse {
  status: number;
  contentType: string;
  text: string;
  body: unknown;
  ms: number;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One HTTP request on its own connection with a hard deadline: a fault test must tell "answered
 * with an error" from "hung", so a hang rejects instead of waiting for jest's timeout. An upgrade
 * request (`headers` asking for one) that is accepted answers status 101 and is closed at once.
 */
export function httpRequest(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; json?: unknown; timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<TimedResponse> {
  const started = Date.now();
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const headers: Record<string, string> = { Connection: 'close', ...opts.headers };
  if (opts.token) headers['Authorization'] = `Bearer ${opts.token}`;
  const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(baseUrl + path, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          text,
          body: parsed,
          ms: Date.now() - started,
          headers: res.headers,
        });
      });
      res.on('error', reject);
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      const ms = Date.now() - started;
      resolve({ status: res.statusCode ?? 0, contentType: '', text: '', body: undefined, ms, headers: res.headers });
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Polls GET /readyz until it answers `status`; resolves with the ms it took. */
export async function waitReadyz(baseUrl: string, status: 200 | 503, timeoutMs: number): Promise<number> {
  const started = Date.now();
  let last = 'no answer';
  while (Date.now() - started < timeoutMs) {
    try {
      const r = await httpRequest(baseUrl, 'GET', '/readyz', { timeoutMs: 1000 });
      if (r.status === status) return Date.now() - started;
      last = `${r.status} ${r.text}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`${baseUrl}/readyz did not answer ${status} within ${timeoutMs} ms (last: ${last})`);
}
