/**
 * Browser-test plumbing: builds the dashboard when dist is missing, launches Debian's headless
 * Chromium (never a downloaded browser), and a TCP proxy that can drop every connection to
 * simulate a network cut (laptop sleep, NAT timeout) between the page and the edge.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const ROOT = join(__dirname, '..', '..');
export const DIST_INDEX = join(ROOT, 'packages', 'dashboard', 'dist', 'public', 'index.html');
export const ARTIFACTS = join(ROOT, 'artifacts', 'dashboard');
export const CHROMIUM = '/usr/bin/chromium';

export function ensureDashboardBuilt(): void {
  if (existsSync(DIST_INDEX)) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'packages', 'dashboard', 'build.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`dashboard build failed:\n${r.stdout}\n${r.stderr}`);
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} missing: apt-get install chromium (.ci/apt-packages.txt)`);
  const profile = mkdtempSync(join(tmpdir(), 'ptyws-chromium-'));
  // Playwright passes --user-data-dir itself for a persistent context: a fresh dir per run.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 720 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Collects console errors and CSP violations of a page. */
export function watchPage(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return { errors };
}

export function screenshotPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}

/**
 * Where a screenshot shown in the dashboard's README goes: packages/dashboard/docs/ when
 * PTYWS_UPDATE_SCREENSHOTS=1 (refresh them after a UI change and commit), else beside the other
 * artifacts, so an ordinary test run leaves the work tree as it was.
 */
export function docsScreenshotPath(name: string): string {
  if (process.env['PTYWS_UPDATE_SCREENSHOTS'] !== '1') return screenshotPath(name);
  const docs = join(ROOT, 'packages', 'dashboard', 'docs');
  mkdirSync(docs, { recursive: true });
  return join(docs, name);
}

/** A TCP proxy in front of the edge that can cut every connection and refuse new ones. */
export class DropProxy {
  private readonly sockets = new Set<Socket>();
  private refusing = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static start(targetPort: number): Promise<DropProxy> {
    return new Promise((resolve, reject) => {
      let proxy: DropProxy | undefined;
      const server = createServer((client) => {
        if (!proxy || proxy.refusing) return client.destroy();
        const upstream = connect(targetPort, '127.0.0.1');
        for (const s of [client, upstream]) {
          proxy.sockets.add(s);
          s.on('close', () => proxy?.sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.pipe(upstream);
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const addr = server.address();
        if (typeof addr !== 'object' || !addr) return reject(new Error('proxy has no address'));
        proxy = new DropProxy(server, addr.port);
        resolve(proxy);
      });
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Cuts every open connection (both directions) at once. */
  dropAll(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  refuse(on: boolean): void {
    this.refusing = on;
  }

  close(): Promise<void> {
    this.dropAll();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
