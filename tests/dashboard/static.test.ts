/** The edge serving the dashboard: content types, cache headers, CSP, traversal, and the 503 when unbuilt. */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, startTestServer, type TestServer } from '@pty-ws/testkit';
import { DASHBOARD_CSP, mountStatic, uWS, type us_listen_socket } from '@pty-ws/edge/internal';
import { ensureDashboardBuilt } from './harness';

let server: TestServer;

beforeAll(async () => {
  ensureDashboardBuilt();
  server = await startTestServer();
});

afterAll(async () => {
  await server?.stop();
});

test('GET / serves index.html with a strict CSP and revalidation', async () => {
  const res = await http(server, 'GET', '/', { token: null });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-cache');
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toBe(DASHBOARD_CSP);
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  // No inline script: every <script> names a same-origin file.
  const scripts = [...res.text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts) {
    expect(s[0]).toMatch(/src="\/assets\/[^"]+\.js"/);
    expect(s[1]!.trim()).toBe('');
  }
  const etag = res.headers.get('etag')!;
  const again = await http(server, 'GET', '/', { token: null, headers: { 'If-None-Match': etag } });
  expect(again.status).toBe(304);
});

test('assets are served with their content type and cached as immutable', async () => {
  const index = await http(server, 'GET', '/', { token: null });
  const js = /src="(\/assets\/[^"]+\.js)"/.exec(index.text)![1]!;
  const css = /href="(\/assets\/[^"]+\.css)"/.exec(index.text)![1]!;
  const a = await http(server, 'GET', js, { token: null });
  expect(a.status).toBe(200);
  expect(a.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(a.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  // The bundle leaves out ajv (CSP without 'unsafe-eval').
  expect(a.text).not.toMatch(/new Function\(|\bajv\b/);
  const c = await http(server, 'GET', css, { token: null });
  expect(c.status).toBe(200);
  expect(c.headers.get('content-type')).toBe('text/css; charset=utf-8');
  expect(c.text).toContain('.xterm');
});

test('unknown and path-walking asset names are 404', async () => {
  for (const path of ['/assets/nope.js', '/assets/..%2f..%2fpackage.json', '/assets/.hidden.js', '/assets/x.exe']) {
    expect((await http(server, 'GET', path, { token: null })).status).toBe(404);
  }
});

test('without a built dashboard, / answers 503 telling how to build it', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'ptyws-nodash-'));
  const app = uWS.App();
  mountStatic(app, { dir: empty });
  const socket = await new Promise<us_listen_socket>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (s) => (s ? resolve(s) : reject(new Error('listen failed')))),
  );
  try {
    const port = uWS.us_socket_local_port(socket);
    const res = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/', agent: false }, (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString('utf8')));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, type: String(r.headers['content-type']), body }));
      })
        .on('error', reject)
        .end();
    });
    expect(res.status).toBe(503);
    expect(res.type).toMatch(/^text\/plain/);
    expect(res.body).toContain('npm run build');
  } finally {
    uWS.us_listen_socket_close(socket);
    rmSync(empty, { recursive: true, force: true });
  }
});
