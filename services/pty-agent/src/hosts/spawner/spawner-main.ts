/**
 * The agent's spawner: a small process, started with the agent, that forks sessions' programs on
 * its behalf. node-pty forks the calling process, and a fork copies the caller's page tables and
 * makes all of its memory copy-on-write: in an agent with 1 GB of heap a spawn blocked the event
 * loop for 17–20 ms (every session's keystrokes waited), and rewriting 50 MB of the agent's memory
 * afterwards cost ~13,000 page faults. This process stays small, so its forks are cheap.
 *
 * The agent opens the pty pair itself (no fork) and sends the slave's path; here the program is
 * started on it as a session leader with the tty as its controlling terminal (`setsid --ctty`, so
 * job control and ^C work as under forkpty), after the tty got node-pty's termios. The agent reads
 * and writes the master; this process only reports the pid and the exit.
 *
 * argv: <setsid path> <stty path>
 */
import { spawn } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { refuseDumps } from '../no-dump';
import { NODE_PTY_TERMIOS, type SpawnRequest, type SpawnerEvent } from './messages';

const [setsid, stty] = process.argv.slice(2) as [string, string];
// As the agent: the programs it starts may not trace it (they become dumpable again at exec).
refuseDumps();

function send(event: SpawnerEvent): void {
  process.send?.(event);
}

/** The tty gets node-pty's termios first: the program may read them as soon as it starts. */
function start(req: SpawnRequest): void {
  const settings = spawn(stty, ['-F', req.tty, ...NODE_PTY_TERMIOS], { stdio: 'ignore' });
  settings.once('error', () => launch(req)); // a tty with the kernel's defaults still works
  settings.once('exit', () => launch(req));
}

function launch(req: SpawnRequest): void {
  let fd: number;
  try {
    // O_NOCTTY: this process must not take the tty as its own controlling terminal.
    fd = openSync(req.tty, constants.O_RDWR | constants.O_NOCTTY);
  } catch (err) {
    send({ type: 'failed', id: req.id, message: (err as Error).message });
    return;
  }
  try {
    const child = spawn(setsid, ['--ctty', '--', req.file, ...req.args], {
      stdio: [fd, fd, fd],
      env: req.env,
      cwd: req.cwd,
    });
    child.once('spawn', () => send({ type: 'spawned', id: req.id, pid: child.pid as number }));
    child.once('error', (err) => send({ type: 'failed', id: req.id, message: err.message }));
    child.once('exit', (code, signal) => send({ type: 'exit', id: req.id, code, signal }));
  } catch (err) {
    send({ type: 'failed', id: req.id, message: (err as Error).message });
  } finally {
    closeSync(fd); // the child has its own copies
  }
}

process.on('message', (msg: SpawnRequest) => {
  if (msg && msg.type === 'spawn') start(msg);
});
// The agent is gone (its end of the channel closed): nothing is left to spawn for.
process.on('disconnect', () => process.exit(0));
