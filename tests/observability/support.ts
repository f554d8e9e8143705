/** Shared by the observability tests: scraping /metrics and reading the text exposition. */
import { request } from 'node:http';
import type { CreateSessionBody, Received, TestClient } from '@pty-ws/testkit';
import { outputBytes } from '@pty-ws/testkit';

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
