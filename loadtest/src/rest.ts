/**
 * The service's REST control plane. One connection per request (no keep-alive pool) so nothing
 * outlives a stopped server or keeps the benchmark process alive.
 */
import { request } from 'node:http';

export interface Endpoint {
  httpUrl: string;
  wsUrl: string;
  instanceId: string;
  token: string;
}

export function call(
  ep: Endpoint,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { Authorization: `Bearer ${ep.token}`, Connection: 'close' };
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    const req = request(ep.httpUrl + path, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = text ? (JSON.parse(text) as unknown) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, text });
      });
      res.on('error', reject);
    });
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

export async function createSession(ep: Endpoint, argv: string[]): Promise<string> {
  const res = await call(ep, 'POST', '/api/v1/sessions', { argv, cols: 120, rows: 30 });
  const id = (res.body as { session_id?: unknown } | undefined)?.session_id;
  if (res.status !== 201 || typeof id !== 'string') {
    throw new Error(`POST /api/v1/sessions -> ${res.status} ${res.text.slice(0, 200)}`);
  }
  return id;
}

/** Kills a session; a session that already ended is fine. */
export async function deleteSession(ep: Endpoint, id: string): Promise<void> {
  await call(ep, 'DELETE', `/api/v1/sessions/${encodeURIComponent(id)}`).catch(() => undefined);
}

export function attachUrl(ep: Endpoint, sessionId: string): string {
  return `${ep.wsUrl}/agents/${encodeURIComponent(ep.instanceId)}/sessions/${encodeURIComponent(sessionId)}/attach`;
}

/** Runs `fn` over `items` with at most `limit` in flight (session creation is not free). */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Creates sessions and deletes them all at cleanup, concurrently: one DELETE at a time costs a
 * session's exit grace (~200 ms) each, which for 100 sessions is longer than the measurement.
 */
export class SessionSet {
  private readonly ids: string[] = [];
  constructor(private readonly ep: Endpoint) {}

  async create(argv: string[]): Promise<string> {
    const id = await createSession(this.ep, argv);
    this.ids.push(id);
    return id;
  }

  /** Deletes one session now (it is not deleted again by deleteAll). */
  async delete(id: string): Promise<void> {
    const i = this.ids.indexOf(id);
    if (i >= 0) this.ids.splice(i, 1);
    await deleteSession(this.ep, id);
  }

  async deleteAll(): Promise<void> {
    await mapLimit(this.ids.splice(0), 20, (id) => deleteSession(this.ep, id));
  }
}
