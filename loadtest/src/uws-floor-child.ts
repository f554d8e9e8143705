/**
 * The raw uWS publish floor, as its own process: what fan-out costs with nothing but uWebSockets.js
 * (no PTY, no log, no terminal mirror). Every socket subscribes to one topic; the first text
 * message "go" starts the flood: the same bytes a flooding session prints (base64 lines, then the
 * end marker), published as 32 KiB binary frames as fast as the slowest subscriber drains (above
 * 1 MiB of backlog on any socket it waits for `drain`; uWS would drop frames otherwise).
 * A binary message is sent straight back: the WebSocket round trip of a keystroke echo, without
 * the PTY (the echo floor beside raw node-pty's PTY round trip).
 *
 * argv: <payload bytes>. Prints `port <n>` once listening.
 */
import { randomBytes } from 'node:crypto';
// eslint-disable-next-line @typescript-eslint/no-require-imports
import uWS = require('uWebSockets.js');
import { FLOOD_END } from './programs';

const FRAME = 32 * 1024;
const HIGH_WATER = 1024 * 1024;
const TOPIC = 'flood';

const n = Number(process.argv[2] ?? '1000000');
// As `head -c n /dev/urandom | base64`: 76-column lines (CR LF, as a PTY turns LF into).
const b64 = randomBytes(Math.max(1, Math.floor(n))).toString('base64');
const lines: string[] = [];
for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
const payload = Buffer.from(`${lines.join('\r\n')}\r\n\r\n${FLOOD_END}\r\n`, 'latin1');

const sockets = new Set<uWS.WebSocket<unknown>>();
let offset = -1; // not started
const app = uWS.App();

function backedUp(): boolean {
  for (const ws of sockets) if (ws.getBufferedAmount() > HIGH_WATER) return true;
  return false;
}

function pump(): void {
  while (offset >= 0 && offset < payload.length) {
    if (backedUp()) return; // resumed by the next drain
    const end = Math.min(offset + FRAME, payload.length);
    app.publish(TOPIC, payload.subarray(offset, end), true);
    offset = end;
  }
}

app.ws('/*', {
  maxBackpressure: 64 * 1024 * 1024,
  maxPayloadLength: 1024,
  idleTimeout: 0,
  open: (ws) => {
    sockets.add(ws);
    ws.subscribe(TOPIC);
  },
  message: (ws, message, isBinary) => {
    if (isBinary) {
      ws.send(message, true);
      return;
    }
    if (Buffer.from(message).toString() === 'go' && offset < 0) {
      offset = 0;
      pump();
    }
  },
  drain: () => pump(),
  close: (ws) => sockets.delete(ws),
});
app.listen('127.0.0.1', 0, (token) => {
  if (!token) throw new Error('uws floor: cannot listen');
  process.stdout.write(`port ${uWS.us_socket_local_port(token)}\n`);
});
