import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import {
  sendMessage,
  uWS,
  type RecognizedString,
  type WebSocket as UwsSocket,
  type us_listen_socket,
} from '../src/uws';

/**
 * sendMessage (uws.ts) against this build of uWS, on real sockets: a server sends 64 KiB messages
 * from its drain handler whenever uWS has nothing buffered (as a lagged reader's catch-up does when
 * the edge resumes it from the drain event), to a client that reads in spurts, so the kernel
 * takes writes short. Every message must arrive, whole and in order.
 */
const SIZE = 64 * 1024;
const COUNT = 400; // ~26 MB: several times what loopback's socket buffers hold
type Send = (ws: UwsSocket<unknown>, message: RecognizedString) => number;

interface Outcome {
  received: number;
  corrupt: number;
  clientError?: string;
}

function message(i: number): Buffer {
  const b = Buffer.alloc(SIZE, i % 251);
  b.writeUInt32BE(i, 0);
  return b;
}

/** Runs the drain-handler pump until every message arrived or nothing arrived for `quietMs`. */
async function pumpFromDrain(send: Send, quietMs = 1500): Promise<Outcome> {
  let sent = 0;
  const servers = new Set<UwsSocket<unknown>>();
  const pump = (ws: UwsSocket<unknown>): void => {
    while (sent < COUNT && ws.getBufferedAmount() === 0) send(ws, message(sent++));
  };
  const app = uWS.App().ws<unknown>('/*', {
    compression: uWS.DISABLED,
    maxBackpressure: 64 * 1024 * 1024,
    idleTimeout: 0,
    open: (ws) => {
      servers.add(ws);
      pump(ws);
    },
    drain: pump,
    close: (ws) => servers.delete(ws),
  });
  const listen = await new Promise<us_listen_socket>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (t) => (t ? resolve(t) : reject(new Error('listen failed')))),
  );
  const client = new WebSocket(`ws://127.0.0.1:${uWS.us_socket_local_port(listen)}/`, { perMessageDeflate: false });
  const outcome: Outcome = { received: 0, corrupt: 0 };
  const socket = (): { pause(): void; resume(): void } =>
    (client as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  let lastAt = Date.now();
  client.on('message', (d: Buffer) => {
    const i = outcome.received++;
    lastAt = Date.now();
    if (d.length !== SIZE || d.readUInt32BE(0) !== i || d[SIZE - 1] !== i % 251) outcome.corrupt++;
    if (i % 20 === 19) {
      // Read in spurts: the server's writes come up short while the client is not reading.
      socket().pause();
      setTimeout(() => socket().resume(), 2);
    }
  });
  client.on('error', (e) => (outcome.clientError = e.message));
  try {
    while (outcome.received < COUNT && !outcome.clientError && Date.now() - lastAt < quietMs) {
      await new Promise((r) => setTimeout(r, 20));
    }
    return outcome;
  } finally {
    client.terminate();
    for (const ws of servers) ws.close();
    uWS.us_listen_socket_close(listen);
  }
}

describe('sendMessage: large messages on this uWS build', () => {
  it('delivers every message whole and in order when sent from the drain handler', async () => {
    const outcome = await pumpFromDrain((ws, m) => sendMessage(ws, m, true));
    expect(outcome).toEqual({ received: COUNT, corrupt: 0 });
  });

  it('is needed: ws.send stalls here, with part of a message buffered and never written', async () => {
    // If this fails, the uWS build no longer has the bug: sendMessage may go back to ws.send.
    const outcome = await pumpFromDrain((ws, m) => ws.send(m, true), 1000);
    expect(outcome.received).toBeLessThan(COUNT);
  });
});

describe('the edge sends every WebSocket message through sendMessage', () => {
  it('has no other ws.send in its sources', () => {
    const src = join(__dirname, '..', 'src');
    const files = (readdirSync(src, { recursive: true }) as string[]).filter(
      (f) => f.endsWith('.ts') && f !== 'uws.ts',
    );
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((f) =>
      /\bws\??\.send(?:First|Last)?(?:Fragment)?\(/.test(readFileSync(join(src, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
