import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { builtScript } from '../../built-script';

/** The relay's file name, and so its process name. */
const RELAY_NAME = 'stream-relay';

/** The compiled relay (native/stream-relay.c, built by `npm run build`), or undefined without a C compiler. */
export function streamRelayBinary(): string | undefined {
  return builtScript(`native/${RELAY_NAME}`);
}

/** The stream relays process `pid` runs now (its children by the relay's name): for tests and the bench. */
export function runningRelays(pid: number): number[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tids
    .flatMap((tid) => readOrEmpty(`/proc/${pid}/task/${tid}/children`).split(' ').filter(Boolean).map(Number))
    .filter((child) => readOrEmpty(`/proc/${child}/comm`).trim() === RELAY_NAME);
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // gone in between
  }
}

/**
 * One run of the stream relay on a pty master: the relay reads the tty and `onData` gets what it
 * read, in order, until `ended` resolves. `stop()` asks it to end; it writes what it already read
 * first, so once `ended` resolves the tty holds exactly what nobody has read yet.
 */
export class StreamRelay {
  /**
   * Resolves once the relay has exited and everything it read has been handed to `onData`: true
   * when it ended as it should (stopped, or the tty ended), false when it could not start or was
   * killed from outside (what it had read and not written is lost then, and said: relayEnded).
   */
  readonly ended: Promise<boolean>;
  private readonly child: ChildProcess;
  private readonly out: Readable;
  private readonly stopLine: Writable;

  constructor(binary: string, masterFd: number, onData: (chunk: Buffer) => void) {
    // The master as fd 4, not 0: libuv makes a child's fds 0–2 blocking, and the flag belongs to
    // the open file, which the agent shares (its writes to the tty must stay non-blocking).
    this.child = spawn(binary, [], { stdio: ['ignore', 'pipe', 'ignore', 'pipe', masterFd] });
    const [, out, , stopLine] = this.child.stdio;
    this.out = out as Readable;
    this.stopLine = stopLine as Writable;
    this.out.on('data', onData);
    this.stopLine.on('error', () => undefined); // EPIPE once the relay has gone: nothing to stop
    // 'close' comes after the exit and the end of its output, whichever is last; 'error' when it
    // could not be started at all (nothing was read then).
    this.ended = new Promise((resolve) => {
      this.child.once('close', (code) => resolve(code === 0));
      this.child.once('error', () => resolve(false));
    });
  }

  pause(): void {
    this.out.pause();
  }

  resume(): void {
    this.out.resume();
  }

  stop(): Promise<boolean> {
    this.stopLine.destroy();
    return this.ended;
  }
}
