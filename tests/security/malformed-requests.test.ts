/**
 * No request, however malformed, may end the process. `npm start` runs as its own process (a
 * crash there is what the review found: one unauthenticated request with a bad %-escape in the
 * path took every session down): every route is hit with malformed escapes, then with random
 * paths, headers and bodies; each answer is an HTTP status, malformed escapes are 400, and the
 * server still serves a live session afterwards.
 */
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import * as path from 'node:path';
import fc from 'fast-check';
import { startStandaloneProcess, type StandaloneProcess } from '@pty-ws/testkit';

const ROOT = path.resolve(__dirname, '../..');
const BAD_ESCAPES = ['%E0%A4%A', '%ZZ', '%', '%C0%AF', '%ED%A0%80', 'a%2'];

/** One raw HTTP/1.1 exchange on its own socket: the status code, or 0 when the server closed without one. */
function raw(port: number, request: string | Buffer, timeoutMs = 5000): Promise<number> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      clearTimeout(timer);
      sock.destroy();
      resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0));
    };
    const timer = setTimeout(done, timeoutMs);
    sock.on('connect', () => sock.write(request));
    sock.on('data', (c: Buffer) => {
      text += c.toString('latin1');
      if (/\r\n\r\n/.test(text)) {
        const len = /content-length: *(\d+)/i.exec(text);
        const body = text.slice(text.indexOf('\r\n\r\n') + 4);
        if (!len || body.length >= Number(len[1])) done();
      }
    });
    sock.on('error', done);
    sock.on('close', done);
  });
}

const get = (p: string, headers = '') => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}\r\n`;
const withBody = (method: string, p: string, body: string, headers = '') =>
  `${method} ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`;

describe('malformed requests against npm start (its own process)', () => {
  let s: StandaloneProcess;
  let port: number;
  beforeAll(async () => {
    const r = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'services/standalone'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}${r.stderr}`);
    s = await startStandaloneProcess({ PTYWS_LOG_LEVEL: 'warn' });
    port = Number(new URL(s.httpUrl).port);
  }, 130_000);
  afterAll(() => s?.kill());

  const alive = async () => {
    expect(s.child.exitCode).toBeNull();
    expect(await raw(port, get('/healthz'))).toBe(200);
  };

  const routes = (bad: string, instance: string) =>
    [
      ['GET', `/agents/${bad}/.well-known/agent-card.json`],
      ['GET', `/agents/${bad}/a2a/v1/tasks`],
      ['GET', `/agents/${instance}/a2a/v1/tasks/${bad}`],
      ['POST', `/agents/${instance}/a2a/v1/tasks/${bad}:cancel`],
      ['POST', `/agents/${bad}/a2a/jsonrpc`],
      ['GET', `/api/v1/sessions/${bad}`],
      ['DELETE', `/api/v1/sessions/${bad}`],
      ['GET', `/api/v1/sessions/${bad}/transcript`],
      ['DELETE', `/api/v1/tokens/${bad}`],
    ] as const;

  it.each(BAD_ESCAPES)(
    'answers 400 to a malformed escape %s on every route, unauthenticated and authenticated',
    async (bad) => {
      for (const auth of ['', `Authorization: Bearer ${s.token}\r\n`]) {
        for (const [method, p] of routes(bad, s.instanceId)) {
          const status =
            method === 'GET' ? await raw(port, get(p, auth)) : await raw(port, withBody(method, p, '{}', auth));
          // An A2A task id is parsed after authentication: anonymous callers learn only 401 there.
          // JSON-RPC answers its errors in a 200 body (checked in tests/a2a); the process surviving is what counts here.
          const expected =
            auth === '' && (p.endsWith('/jsonrpc') || p.includes('/a2a/v1/tasks/'))
              ? 401
              : p.endsWith('/jsonrpc')
                ? 200
                : 400;
          expect({ method, p, status }).toEqual({ method, p, status: expected });
        }
      }
      await alive();
    },
  );

  it('answers 400 (not 500, not a crash) to a malformed escape in the attach URL', async () => {
    for (const bad of BAD_ESCAPES) {
      const upgrade =
        `GET /agents/${s.instanceId}/sessions/${bad}/attach HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\n` +
        `Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
        `Sec-WebSocket-Protocol: pty-ws.v1.json\r\nAuthorization: Bearer ${s.token}\r\n\r\n`;
      expect(await raw(port, upgrade)).toBe(400);
    }
    await alive();
  });

  it('survives random paths, headers and bodies on every route', async () => {
    const prefixes = [
      '/api/v1/sessions',
      '/api/v1/tokens',
      '/api/v1/audit',
      `/agents/${s.instanceId}/a2a/v1/tasks`,
      `/agents/${s.instanceId}/a2a/v1/message:send`,
      `/agents/${s.instanceId}/a2a/jsonrpc`,
      `/agents/${s.instanceId}/.well-known/agent-card.json`,
      `/agents/${s.instanceId}/sessions/x/attach`,
      '/assets',
      '/',
    ];
    const segment = fc.oneof(
      fc.constantFrom(...BAD_ESCAPES, '..', '%2e%2e', '%00', '\u00ff', ':cancel', '*'),
      fc.stringMatching(/^[A-Za-z0-9%._~:@!$&'()*+,;=-]{0,12}$/),
    );
    const headerValue = fc.oneof(
      fc.constantFrom('Bearer %ZZ', 'Bearer ', 'bearer.@@@', 'application/json; charset=%ZZ', 'x'.repeat(4000)),
      fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
    );
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'),
      prefix: fc.constantFrom(...prefixes),
      tail: fc.array(segment, { maxLength: 3 }),
      query: fc.oneof(
        fc.constant(''),
        fc.stringMatching(/^[A-Za-z0-9%=&_.-]{0,20}$/).map((q) => `?${q}`),
      ),
      headers: fc.array(
        fc.tuple(
          fc.constantFrom(
            'Authorization',
            'Content-Type',
            'Accept',
            'A2A-Version',
            'A2A-Extensions',
            'traceparent',
            'Origin',
          ),
          headerValue,
        ),
        { maxLength: 4 },
      ),
      body: fc.oneof(
        fc.constant(''),
        fc.json({ maxDepth: 4 }),
        fc.constantFrom(
          '{',
          '[[[[[[[[',
          '{"jsonrpc":"2.0","method":"SendMessage","params":{"message":{}}}',
          '\u0000\u00ff',
        ),
      ),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const p = [r.prefix, ...r.tail].join('/') + r.query;
        const headers = r.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('');
        const status = await raw(port, withBody(r.method, p, r.body, headers), 3000);
        // Every request gets an answer (uWS itself answers some garbage with a bare close: 0 is allowed only for
        // requests it refuses to parse, never for a crash, which the liveness check below catches).
        expect(status === 0 || (status >= 200 && status < 600)).toBe(true);
        expect(status).not.toBe(500);
      }),
      { numRuns: 300, seed: 0x5eed },
    );
    await alive();
  }, 120_000);
});
