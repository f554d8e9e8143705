/** Ports for test servers: the one freePort every test and fixture uses. */
import { createServer, Socket } from 'node:net';

function listenOnce(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(undefined));
    srv.listen(port, '127.0.0.1', () => {
      const addr = srv.address();
      const bound = typeof addr === 'object' && addr ? addr.port : undefined;
      srv.close(() => resolve(bound));
    });
  });
}

/** A port nothing listens on right now (the kernel's pick, released at once). */
export async function freePort(): Promise<number> {
  const port = await listenOnce(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}

/**
 * Runs `start` (which binds ports it just took from `freePort`) again, up to three times in all,
 * while it fails with "cannot listen": another process can take such a port before it is bound.
 */
export async function onFreePorts<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= 3 || !/cannot listen/.test((err as Error).message)) throw err;
    }
  }
}

/**
 * The first of `count` consecutive ports nothing listens on right now: for commands written
 * with adjacent ports (the README's edges on 8080 and 8081, whose gRPC ports follow them).
 */
export async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await freePort();
    if (first + count - 1 > 65_535) continue;
    let all = true;
    for (let p = first + 1; p < first + count && all; p++) all = (await listenOnce(p)) !== undefined;
    if (all) return first;
  }
  throw new Error(`no ${count} consecutive free ports on 127.0.0.1`);
}

/** True once something accepts TCP connections on 127.0.0.1:port. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new Socket();
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(500, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
    s.connect(port, '127.0.0.1');
  });
}
