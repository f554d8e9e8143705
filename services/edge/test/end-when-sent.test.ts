/**
 * A socket ended with a close frame keeps its backlog: the reader gets every byte sent before the
 * close, then the close frame, however long it stops reading in between (a real uWS server and a
 * real client; see end-when-sent.ts for why uWS alone would drop the socket).
 */
import WebSocket from 'ws';
import { systemClock } from '@pty-ws/ports';
import { endWhenSent } from '../src/ws/end-when-sent';
import type { Conn } from '../src/ws/connection';
import { uWS } from '../src/uws';

/** More than the loopback's kernel buffers hold: most of it stays in uWS's backlog. */
const TOTAL = 32 * 1024 * 1024;
const CHUNK = 64 * 1024;
/**
 * How long the reader stops reading once the server ended the socket: past uWS's end timeout (4 s
 * counted on a 4 s tick, so at most 8 s), after which uWS drops a socket with its backlog.
 */
const READER_PAUSE_MS = 10_000;

it('a reader that stops reading after the close was asked for still gets every byte, then the close frame', async () => {
  let ended: () => void = () => undefined;
  const endedNow = new Promise<void>((resolve) => (ended = resolve));
  let listenSocket: unknown;
  const app = uWS.App().ws<Partial<Conn>>('/*', {
    idleTimeout: 0,
    sendPingsAutomatically: false,
    maxBackpressure: 2 * TOTAL,
    closeOnBackpressureLimit: 0,
    open: (ws) => {
      const chunk = Buffer.alloc(CHUNK, 7);
      for (let sent = 0; sent < TOTAL; sent += CHUNK) ws.send(chunk, true);
      // Outside the open callback, as the edge ends a socket: after its replay's last send.
      setTimeout(() => {
        expect(ws.getBufferedAmount()).toBeGreaterThan(0);
        endWhenSent(ws, ws.getUserData(), 1000, 'bye', { clock: systemClock, stallMs: 60_000 });
        ended();
      }, 50);
    },
    close: (ws) => {
      ws.getUserData().socketClosed = true;
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (ls) => {
      if (!ls) return reject(new Error('listen failed'));
      listenSocket = ls;
      resolve(uWS.us_socket_local_port(ls));
    }),
  );
  try {
    const client = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
    let received = 0;
    client.on('message', (data: Buffer) => (received += data.length));
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      client.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    await new Promise((resolve) => client.once('open', resolve));
    const socket = (client as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    await endedNow;
    await new Promise((resolve) => setTimeout(resolve, READER_PAUSE_MS));
    socket.resume();
    expect(await closed).toEqual({ code: 1000, reason: 'bye' });
    expect(received).toBe(TOTAL);
  } finally {
    uWS.us_listen_socket_close(listenSocket as Parameters<typeof uWS.us_listen_socket_close>[0]);
  }
}, 30_000);
