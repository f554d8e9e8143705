/**
 * Serves the web dashboard (`@pty-ws/dashboard`, built into its dist/public) at `/`, with its
 * content-hashed bundles under `/assets/`. Files are read from disk on request, so a rebuilt
 * dashboard is served without restarting the edge; assets are cached in memory after the first
 * read (their names change whenever their content does).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import type { HttpResponse, TemplatedApp } from '../uws';

/**
 * Scripts only from this origin (no inline script, no eval: the bundle leaves out ajv for that).
 * Styles allow 'unsafe-inline' because xterm.js injects <style> elements for its theme and cell
 * metrics and sets style attributes on truecolor cells; it offers no nonce hook. connect-src
 * 'self' covers the same-origin ws:/wss: attach endpoint (CSP3). form-action 'none': the forms
 * are handled in script, and a page whose script failed must not submit a token in a GET query.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

// nosniff is on every response already (guardApp).
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': DASHBOARD_CSP,
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** Asset names are flat, content-hashed file names: nothing that could walk out of the folder. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const NOT_BUILT =
  'The pty-ws dashboard is not built.\n\nRun `npm run build` in the repository root ' +
  '(or `node packages/dashboard/build.mjs`), then reload this page.\n';

/** `packages/dashboard/dist/public`, found through module resolution; undefined if not installed. */
export function dashboardDir(): string | undefined {
  try {
    return join(dirname(require.resolve('@pty-ws/dashboard/package.json')), 'dist', 'public');
  } catch {
    return undefined;
  }
}

interface Body {
  data: Buffer;
  etag: string;
}

function load(path: string): Body | undefined {
  try {
    if (!statSync(path).isFile()) return undefined;
    const data = readFileSync(path);
    return { data, etag: `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"` };
  } catch {
    return undefined;
  }
}

function send(
  res: HttpResponse,
  status: string,
  type: string,
  cache: string,
  body: Buffer | string,
  etag?: string,
): void {
  res.cork(() => {
    res.writeStatus(status);
    res.writeHeader('content-type', type);
    res.writeHeader('cache-control', cache);
    if (etag) res.writeHeader('etag', etag);
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.writeHeader(k, v);
    res.end(body);
  });
}

export interface StaticOptions {
  /** The built dashboard's folder; default: resolved from `@pty-ws/dashboard`. */
  dir?: string;
}

/** Mounts GET `/` (index.html), `/assets/:file` and `/favicon.ico`. */
export function mountStatic(app: TemplatedApp, opts: StaticOptions = {}): void {
  const dir = opts.dir ?? dashboardDir();
  const assets = new Map<string, Body>();

  app.get('/', (res, req) => {
    const index = dir === undefined ? undefined : load(join(dir, 'index.html'));
    if (!index) return send(res, '503 Service Unavailable', CONTENT_TYPES['.txt']!, 'no-store', NOT_BUILT);
    // Revalidated on every load: it names the current asset hashes.
    if (req.getHeader('if-none-match') === index.etag) {
      return send(res, '304 Not Modified', CONTENT_TYPES['.html']!, 'no-cache', '', index.etag);
    }
    send(res, '200 OK', CONTENT_TYPES['.html']!, 'no-cache', index.data, index.etag);
  });

  app.get('/assets/:file', (res, req) => {
    const name = req.getParameter(0) ?? '';
    const type = CONTENT_TYPES[extname(name)];
    let body = assets.get(name);
    if (!body && dir !== undefined && type && ASSET_NAME.test(name)) {
      body = load(join(dir, 'assets', name));
      if (body) assets.set(name, body);
    }
    if (!body || !type) return send(res, '404 Not Found', CONTENT_TYPES['.txt']!, 'no-store', 'not found\n');
    send(res, '200 OK', type, 'public, max-age=31536000, immutable', body.data, body.etag);
  });

  // Browsers ask for it on every origin; answering spares a 404 in the console.
  app.get('/favicon.ico', (res) => send(res, '204 No Content', CONTENT_TYPES['.ico']!, 'public, max-age=86400', ''));
}
