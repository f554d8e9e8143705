import type * as pty from 'node-pty';

/**
 * The agent's reaches into node-pty's private API, all in this adapter (nothing else names these
 * members); services/pty-agent/test/private-api.test.ts fails, naming the member and node-pty's
 * version, the day an upgrade moves one.
 *
 * - The native binding (`lib/utils`' `loadNativeModule('pty')`: `open`, `resize`). node-pty's
 *   JavaScript API opens a pty only together with a fork; the agent's spawner needs the two steps
 *   apart. Without it the agent falls back to node-pty forking it, and says so.
 * - A UnixTerminal's master fd and write queue (pty-write.ts writes keystrokes at once), and its
 *   slave path, tty socket and close flag (node-pty-host.ts keeps the tail of the output on exit).
 *   Without them those paths fall back to node-pty's own write and exit.
 */
export interface PtyPair {
  master: number;
  slave: number;
  /** The slave's path, /dev/pts/N. */
  pty: string;
}

export interface NativePty {
  open(cols: number, rows: number): PtyPair;
  resize(fd: number, cols: number, rows: number): void;
}

interface NodePtyUtils {
  loadNativeModule?: (name: string) => { module?: Partial<NativePty> };
}

/** The installed node-pty's version, for messages. */
export function nodePtyVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('node-pty/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The binding, or why it cannot be had (the member that is missing and node-pty's version). */
export function loadNativePty(): { native: NativePty } | { problem: string } {
  const where = `node-pty ${nodePtyVersion()}`;
  let utils: NodePtyUtils;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    utils = require('node-pty/lib/utils') as NodePtyUtils;
  } catch (err) {
    return { problem: `${where}: require('node-pty/lib/utils') failed (${(err as Error).message})` };
  }
  if (typeof utils.loadNativeModule !== 'function')
    return { problem: `${where}: lib/utils has no loadNativeModule function` };
  let native: Partial<NativePty> | undefined;
  try {
    native = utils.loadNativeModule('pty').module;
  } catch (err) {
    return { problem: `${where}: loadNativeModule('pty') failed (${(err as Error).message})` };
  }
  for (const member of ['open', 'resize'] as const) {
    if (typeof native?.[member] !== 'function')
      return { problem: `${where}: the native 'pty' module has no ${member} function` };
  }
  return { native: native as NativePty };
}

/** The binding, or undefined when this node-pty does not expose it (the agent then forks itself). */
export function nativePty(): NativePty | undefined {
  const loaded = loadNativePty();
  return 'native' in loaded ? loaded.native : undefined;
}

/** What node-pty 1.1's UnixTerminal keeps behind its public API, as the agent uses it; every member may be absent. */
export interface UnixTerminalInternals {
  /** The master fd. */
  fd?: number;
  /** The queue of writes not yet taken by the kernel. */
  _writeStream?: { _writeQueue?: unknown[] };
  /** The slave's path, /dev/pts/N. */
  ptsName?: string;
  /** The master's tty socket, which node-pty destroys (with its exit event) after the program exits. */
  _socket?: { destroy: (...args: unknown[]) => unknown };
  /** Whether the socket's close is bound to the exit (the destroy then waits for the drain). */
  _boundClose?: boolean;
}

/** The members of a node-pty terminal the agent reads (a view, not a copy). */
export function unixTerminal(term: pty.IPty): UnixTerminalInternals {
  return term as unknown as UnixTerminalInternals;
}

/** What a live node-pty terminal lacks of UnixTerminalInternals, named with node-pty's version; undefined when all is there. */
export function unixTerminalProblem(term: pty.IPty): string | undefined {
  const where = `node-pty ${nodePtyVersion()}: UnixTerminal`;
  const t = unixTerminal(term);
  if (typeof t.fd !== 'number') return `${where}.fd is not a number`;
  if (!Array.isArray(t._writeStream?._writeQueue)) return `${where}._writeStream._writeQueue is not an array`;
  if (typeof t.ptsName !== 'string') return `${where}.ptsName is not a string`;
  if (typeof t._socket?.destroy !== 'function') return `${where}._socket.destroy is not a function`;
  if (typeof t._boundClose !== 'boolean') return `${where}._boundClose is not a boolean`;
  return undefined;
}
