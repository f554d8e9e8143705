import type { Socket } from 'node:net';

/**
 * The agent's one reach into Node's private stream internals (its adapter: nothing else names
 * these members). A net.Socket's `_handle` is its libuv stream, here a pty master's TTY wrap;
 * `readStart()`/`readStop()` start and stop libuv's reads at once, where the public
 * `pause()`/`resume()` only stop delivering and leave libuv reading into the stream's buffer
 * (so a paused session's tty would still be drained, and its program never blocked).
 * services/pty-agent/test/private-api.test.ts fails, naming the member and Node's version, the
 * day Node changes them.
 */
interface LibuvStream {
  /** net.Socket's own bookkeeping of whether the handle reads, kept as its tryReadStart does. */
  reading?: boolean;
  readStart(): number;
  readStop(): number;
}

const handleOf = (socket: Socket): LibuvStream | null | undefined =>
  (socket as unknown as { _handle?: LibuvStream | null })._handle;

/** Starts or stops libuv's reads on `socket` at once; nothing once it is destroyed (`_handle` null). */
export function setReading(socket: Socket, on: boolean): void {
  const handle = handleOf(socket);
  if (!handle || handle.reading === on) return;
  handle.reading = on;
  if (on) handle.readStart();
  else handle.readStop();
}

/** What this Node lacks of what setReading uses on a live socket, named with Node's version; undefined when all is there. */
export function libuvStreamProblem(socket: Socket): string | undefined {
  const where = `node ${process.version}`;
  const handle = handleOf(socket);
  if (handle === undefined) return `${where}: net.Socket has no _handle`;
  if (handle === null) return `${where}: net.Socket#_handle is null on a live socket`;
  for (const member of ['readStart', 'readStop'] as const) {
    if (typeof handle[member] !== 'function') return `${where}: net.Socket#_handle.${member} is not a function`;
  }
  // net.Socket sets `reading` once it first starts reading; before that it is absent.
  if (handle.reading !== undefined && typeof handle.reading !== 'boolean')
    return `${where}: net.Socket#_handle.reading is not a boolean`;
  return undefined;
}
