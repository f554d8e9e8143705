/**
 * The echo floor of a WebSocket terminal, as its own process: uWebSockets.js and node-pty with
 * nothing between them (no protocol, no log, no terminal mirror, no transcript). Every socket
 * gets its own PTY running the given program; a binary message is written to the PTY the way the
 * service writes a keystroke (the agent's `writeToPty`), and each PTY read goes back as one binary
 * message. What the service adds to a keystroke is its echo minus this one. A socket more than
 * HIGH_WATER behind pauses its PTY until it drains, as any terminal server must: without that, uWS
 * dropped frames past its backpressure bound, and a stream whose end marker was dropped never
 * ended (a bench run's relay stream timed out).
 *
 * argv: <JSON argv of the program>. Prints `port <n>` once listening.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
import uWS = require('uWebSockets.js');
import { writeToPty } from '@pty-ws/pty-agent/internal';
import { spawnLocal, type LocalPty } from './targets/local-pty';

interface Relay {
  local?: LocalPty;
  closed?: boolean;
}

const HIGH_WATER = 1024 * 1024;

const argv = JSON.parse(process.argv[2] ?? '[]') as string[];
if (argv.length === 0) throw new Error('relay floor: no program');

uWS
  .App()
  .ws<Relay>('/*', {
    idleTimeout: 0,
    maxBackpressure: 64 * 1024 * 1024,
    open: (ws) => {
      const relay = ws.getUserData();
      const local = spawnLocal(argv);
      local.setListener((chunk) => {
        if (relay.closed) return; // the PTY's last reads after the socket closed
        ws.send(chunk, true);
        if (ws.getBufferedAmount() > HIGH_WATER) local.proc.pause();
      });
      relay.local = local;
    },
    drain: (ws) => {
      if (ws.getBufferedAmount() <= HIGH_WATER) ws.getUserData().local?.proc.resume();
    },
    message: (ws, message, isBinary) => {
      const local = ws.getUserData().local;
      if (isBinary && local) writeToPty(local.proc, Buffer.from(message));
    },
    close: (ws) => {
      const relay = ws.getUserData();
      relay.closed = true;
      relay.local?.kill();
    },
  })
  .listen('127.0.0.1', 0, (token) => {
    if (!token) throw new Error('relay floor: cannot listen');
    process.stdout.write(`port ${uWS.us_socket_local_port(token)}\n`);
  });
