/**
 * The echo floor of a WebSocket terminal, as its own process: uWebSockets.js and node-pty with
 * nothing between them (no protocol, no log, no terminal mirror, no transcript). Every socket
 * gets its own PTY running the given program; a binary message is written to the PTY the way the
 * service writes a keystroke (the agent's `writeToPty`), and each PTY read goes back as one binary
 * message. What the service adds to a keystroke is its echo minus this one.
 *
 * argv: <JSON argv of the program>. Prints `port <n>` once listening.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
import uWS = require('uWebSockets.js');
import { writeToPty } from '@pty-ws/pty-agent/internal';
import { spawnLocal, type LocalPty } from './targets/local-pty';

interface Relay {
  local?: LocalPty;
}

const argv = JSON.parse(process.argv[2] ?? '[]') as string[];
if (argv.length === 0) throw new Error('relay floor: no program');

uWS
  .App()
  .ws<Relay>('/*', {
    idleTimeout: 0,
    open: (ws) => {
      const local = spawnLocal(argv);
      local.setListener((chunk) => ws.send(chunk, true));
      ws.getUserData().local = local;
    },
    message: (ws, message, isBinary) => {
      const local = ws.getUserData().local;
      if (isBinary && local) writeToPty(local.proc, Buffer.from(message));
    },
    close: (ws) => ws.getUserData().local?.kill(),
  })
  .listen('127.0.0.1', 0, (token) => {
    if (!token) throw new Error('relay floor: cannot listen');
    process.stdout.write(`port ${uWS.us_socket_local_port(token)}\n`);
  });
