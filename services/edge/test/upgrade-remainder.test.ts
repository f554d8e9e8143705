import WebSocket from 'ws';
import { claimUpgradeRemainder, uWS, type WebSocket as UwsSocket, type us_listen_socket } from '../src/uws';

/**
 * claimUpgradeRemainder (uws.ts) against this build of uWS, on real sockets: a server upgrades
 * asynchronously inside `res.cork`, as the edge does, and its open event makes an allocation that
 * can take the memory the upgrade freed, filled the way a heap pointer's upper half is. Every
 * socket must stay open until the server's first message, as it does when the open event
 * allocates nothing.
 */
const CONNECTIONS = 40;

interface Data {
  greeted: boolean;
  closed: boolean;
}

/** Connections whose server socket closed before it sent its first message. */
async function droppedBeforeHello(claim: boolean): Promise<number> {
  let dropped = 0;
  let listen: us_listen_socket | false = false;
  const held: Uint8Array[] = [];
  const app = uWS.App().ws<Data>('/*', {
    idleTimeout: 0,
    upgrade: (res, req, context) => {
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      let aborted = false;
      res.onAborted(() => (aborted = true));
      setImmediate(() => {
        if (aborted) return;
        res.cork(() => res.upgrade<Data>({ greeted: false, closed: false }, key, protocol, extensions, context));
      });
    },
    open: (ws: UwsSocket<Data>) => {
      if (claim) claimUpgradeRemainder();
      // Allocations of the open event: sizes around the freed tail, bytes like 0x5555 (a heap address's upper half).
      for (let n = 24; n <= 184; n += 16) held.push(new Uint8Array(new ArrayBuffer(n)).fill(0x55));
      setImmediate(() => {
        const d = ws.getUserData();
        if (d.closed) return;
        d.greeted = true;
        ws.send('hello');
      });
    },
    close: (ws) => {
      const d = ws.getUserData();
      d.closed = true;
      if (!d.greeted) dropped++;
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (ls) => {
      listen = ls;
      if (ls) resolve(uWS.us_socket_local_port(ls));
      else reject(new Error('listen failed'));
    }),
  );
  try {
    for (let i = 0; i < CONNECTIONS; i++) {
      await new Promise<void>((resolve) => {
        const c = new WebSocket(`ws://127.0.0.1:${port}/`, ['pty.v1.json']);
        c.on('message', () => c.close());
        c.on('close', () => resolve());
        c.on('error', () => undefined);
      });
    }
  } finally {
    if (listen) uWS.us_listen_socket_close(listen);
  }
  return dropped;
}

describe('an asynchronous upgrade inside res.cork', () => {
  it('keeps the socket open when the open event claims the freed remainder first', async () => {
    expect(await droppedBeforeHello(true)).toBe(0);
    expect(await droppedBeforeHello(true)).toBe(0);
  });

  it('without the claim, this build of uWS drops such sockets (when it stops, the claim can go)', async () => {
    expect(await droppedBeforeHello(false)).toBeGreaterThan(0);
  });
});
