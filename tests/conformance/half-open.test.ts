/**
 * Stale clients whose TCP connection went half-open (issue 4, binding §2.4): the peer vanished
 * without a FIN — a laptop lid closed, a NAT entry dropped — so nothing ever comes back, not
 * even a TCP reset. A proxy in the middle stands in for the network: once frozen it swallows
 * everything in both directions and closes nothing. The server must notice by the missing pongs
 * alone, drop the socket, and free the controller seat.
 */
import net, { type AddressInfo, type Server, type Socket } from 'node:net';
import { joinSession, sessionFrameOf, TestClient, type Received } from '@pty-ws/testkit';
import { marker, shell, useServer } from './support';

/** A TCP relay to `target` that can be frozen into a black hole. */
class BlackHoleProxy {
  private readonly pairs: Array<[Socket, Socket]> = [];
  private frozen = false;

  private constructor(private readonly server: Server) {}

  static async start(target: URL): Promise<BlackHoleProxy> {
    const server = net.createServer();
    const proxy = new BlackHoleProxy(server);
    server.on('connection', (client) => {
      const upstream = net.connect(Number(target.port), target.hostname);
      proxy.pairs.push([client, upstream]);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        from.on('data', (chunk) => {
          if (!proxy.frozen) to.write(chunk);
        });
        from.on('error', () => undefined);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** From now on nothing passes either way, and neither side is told. */
  freeze(): void {
    this.frozen = true;
  }

  /** Whether the server side of every relayed connection has been closed by the server. */
  upstreamClosed(): boolean {
    return this.pairs.every(([, upstream]) => upstream.destroyed || upstream.readableEnded);
  }

  async stop(): Promise<void> {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('half-open connections', () => {
  // Ping every 100 ms, reap after 600 ms without a pong; one controller at a time.
  const ctx = useServer({ pingIntervalMs: 100, pongTimeoutMs: 600, maxControllers: 1 });

  it('a controller behind a connection gone half-open is reaped and its seat freed', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const watcher = await ctx().attach(s);
    await joinSession(watcher, { role: 'observer', client_label: 'watcher' });

    const direct = new URL(ctx().server.attachUrl(s));
    const proxy = await BlackHoleProxy.start(direct);
    try {
      const viaProxy = new URL(direct.href);
      viaProxy.port = String(proxy.port);
      const ghost = await TestClient.connect(viaProxy.href, { token: ctx().server.adminToken });
      await ghost.hello();
      const fg = await joinSession(ghost, { role: 'controller', client_label: 'lid-closed' });
      expect(fg.roleAssigned.role).toBe('controller');

      const from = watcher.mark();
      proxy.freeze();
      const released = await watcher.waitFor(
        (r: Received) => {
          const m = sessionFrameOf(r, 'MembershipChanged');
          return m !== undefined && !m.controllers.some((c) => c.client_id === fg.clientId);
        },
        5000,
        from,
      );
      expect(sessionFrameOf(released, 'MembershipChanged')?.controllers).toEqual([]);
      // The ghost never learns anything (the network is gone), but the server let go of it.
      expect(ghost.isOpen).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(proxy.upstreamClosed()).toBe(true);

      const next = await ctx().attach(s);
      const fn = await joinSession(next, { role: 'controller', client_label: 'new-tab' });
      expect(fn.roleAssigned).toMatchObject({ role: 'controller' });
      const m = marker('after_half_open');
      const wFrom = watcher.mark();
      next.input(m.cmd);
      await watcher.collectOutput(m.re, 3000, wFrom);
      ghost.terminate();
    } finally {
      await proxy.stop();
    }
  });
});
