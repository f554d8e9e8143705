#!/usr/bin/env node
/** `ptyctl` entry point: run the command, let stdout/stderr drain, exit with its code. */
import { run } from './cli';
import { oneLine } from './errors';

function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

// `ptyctl session list | head -1`: a reader that stops early is not an error. EIO: the terminal
// went away (SIGHUP during attach); there is nobody left to tell.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE' || err.code === 'EIO') process.exit(0);
  fail(`cannot write to stdout: ${err.message}`);
});

// A bug must still end in one line and exit 1, not a stack trace; Node restores the TTY's
// termios on exit, so an attach that dies here does not leave the terminal raw.
process.on('uncaughtException', (err) => fail(`internal error: ${err.message}`));

function fail(message: string): never {
  process.stderr.write(`ptyctl: ${oneLine(message)}\n`);
  process.exit(1);
}

void run(process.argv).then(async (code) => {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  // Explicit exit: a WebSocket or a TTY listener left behind must not keep the CLI alive.
  process.exit(code);
});
