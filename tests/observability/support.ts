/** Shared by the observability tests: scraping /metrics and reading the text exposition. */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { request } from 'node:http';
import type { CreateSessionBody, Received, StandaloneProcess, TestServer } from '@pty-ws/testkit';
import { TestClient, http, outputBytes } from '@pty-ws/testkit';

export interface Scrape {
  status: number;
  contentType: string;
  text: string;
  /** `name{labels}` → value, labels as the exposition prints them. */
  samples: Map<string, number>;
  /** `# TYPE` lines: metric family → type. */
  types: Map<string, string>;
}

export function parseExposition(text: string): Pick<Scrape, 'samples' | 'types'> {
  const samples = new Map<string, number>();
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line === '' || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    samples.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return { samples, types };
}

export function httpGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false, headers: { ...headers, Connection: 'close' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

export async function scrape(baseUrl: string): Promise<Scrape> {
  const res = await httpGet(`${baseUrl}/metrics`);
  return { ...res, ...parseExposition(res.text) };
}

/** An interactive /bin/sh session with a predictable prompt. */
export function shell(extra: CreateSessionBody = {}): CreateSessionBody {
  return {
    argv: ['/bin/sh'],
    env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    cols: 80,
    rows: 24,
    ...extra,
  };
}

/** Everything the client received as Output (JSON or PW1O) from index `from` on. */
export function outputText(client: TestClient, from = 0): string {
  return client.frames
    .slice(from)
    .map((r: Received) => outputBytes(r)?.toString('utf8') ?? '')
    .join('');
}

/** Builds `npm start`'s main.js for tests that run it as its own process (incremental: a no-op when current). */
export function buildStandalone(): void {
  const r = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'services/standalone'], {
    cwd: path.resolve(__dirname, '../..'),
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}${r.stderr}`);
}

/** A session on `npm start` run as its own process; its id. */
export async function createSession(s: StandaloneProcess, body: Record<string, unknown>): Promise<string> {
  // testkit's http() only reads the URL and the admin token of the server it is given.
  const server = { httpUrl: s.httpUrl, adminToken: s.token } as TestServer;
  const res = await http(server, 'POST', '/api/v1/sessions', { json: body });
  const id = (res.body as { session_id?: string } | undefined)?.session_id;
  if (res.status !== 201 || !id) throw new Error(`create session → ${res.status} ${res.text}`);
  return id;
}

/** A client of `s`, attached to the session (not joined). */
export async function attach(s: StandaloneProcess, sessionId: string): Promise<TestClient> {
  const c = await TestClient.connect(`${s.wsUrl}/agents/${s.instanceId}/sessions/${sessionId}/attach`, {
    token: s.token,
  });
  await c.hello();
  return c;
}
