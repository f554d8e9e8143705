/**
 * The echo floor of a WebSocket terminal, as its own process: uWebSockets.js and node-pty with
 * nothing between them (no protocol, no log, no terminal mirror, no transcript). Every socket
 * gets its own PTY running the given program; a binary message is written to the PTY as the
 * service writes a keystroke (straight to the master fd, pty-write.ts), and each PTY read goes
 * back as one binary message. What the service adds to a keystroke is its echo minus this one.
 *
 * argv: <JSON argv of the program>. Prints `port <n>` once listening.
 */
import { writeSync } from 'node:fs';
import type * as pty from 'node-pty';
// eslint-disable-next-line @typescript-eslint/no-require-imports
import uWS = require('uWebSockets.js');
import { spawnLocal, type LocalPty } from './targets/local-pty';

interface Relay {
  local?: LocalPty;
}

const argv = JSON.parse(process.argv[2] ?? '[]') as string[];
if (argv.length === 0) throw new Error('relay floor: no program');

/** node-pty 1.1 keeps the master fd here; a write it has queued must not be overtaken. */
function write(term: pty.IPty, data: Buffer): void {
  const internals = term as unknown as { fd?: number; _writeStream?: { _writeQueue?: unknown[] } };
  const queue = internals._writeStream?._writeQueue;
  if (typeof internals.fd !== 'number' || !Array.isArray(queue) || queue.length > 0 || data.length > 4096) {
    term.write(data as unknown as string);
    return;
  }
  let written = 0;
  try {
    written = writeSync(internals.fd, data);
  } catch {
    // EAGAIN: node-pty's queue takes the rest.
  }
  if (written < data.length) term.write(data.subarray(written) as unknown as string);
}

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
      if (isBinary && local) write(local.proc, Buffer.from(message));
    },
    close: (ws) => ws.getUserData().local?.kill(),
  })
  .listen('127.0.0.1', 0, (token) => {
    if (!token) throw new Error('relay floor: cannot listen');
    process.stdout.write(`port ${uWS.us_socket_local_port(token)}\n`);
  });
