import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface RunningMetricsServer {
  /** The port actually bound (0 picks a free one). */
  port: number;
  close(): Promise<void>;
}

/**
 * A small HTTP server for a process without its own (the pty-agent): `GET /metrics` (Prometheus
 * text), `/healthz` (alive) and `/readyz` (200 while `ready()`, else 503).
 */
export interface MetricsServerOptions {
  /**
   * When `port` is taken, try up to this many ports above it (default 0: fail). For a default
   * port two processes of one host both want (two pty-agents), never for a port that was chosen.
   */
  tryNextPorts?: number;
}

export async function startMetricsServer(
  registry: Registry,
  host: string,
  port: number,
  ready: () => boolean = () => true,
  options: MetricsServerOptions = {},
): Promise<RunningMetricsServer> {
  const last = port === 0 ? 0 : Math.min(65_535, port + (options.tryNextPorts ?? 0));
  for (let candidate = port; ; candidate++) {
    try {
      return await listenMetricsServer(registry, host, candidate, ready);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || candidate >= last) throw err;
    }
  }
}

function listenMetricsServer(
  registry: Registry,
  host: string,
  port: number,
  ready: () => boolean,
): Promise<RunningMetricsServer> {
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'method not allowed' });
    if (path === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
          res.end(text);
        },
        (err: unknown) => json(res, 500, { error: `metrics unavailable: ${(err as Error).message}` }),
      );
      return;
    }
    if (path === '/healthz') return json(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      const ok = ready();
      return json(res, ok ? 200 : 503, { status: ok ? 'ready' : 'not ready' });
    }
    json(res, 404, { error: 'not found' });
  };
  const server = createServer(handle);
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
