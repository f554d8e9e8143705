import type { Command } from 'commander';
import { settingsOf } from '../context';
import { sequenceNumber } from '../parsers';
import { isSessionClosed, reportEnd, whenEnded, withExitStatus } from '../session-end';
import { EXIT_STATUS_FLAG, EXIT_STATUS_HELP } from './exit-status-help';

interface TailFlags {
  replayFrom?: number;
  binary?: boolean;
  exitStatus?: boolean;
}

export function registerTail(program: Command): void {
  program
    .command('tail')
    .description("print a session's output to stdout as an observer, until the session closes")
    .argument('<session>', 'session id')
    .option(
      '--replay-from <seq>',
      'first print the retained output after this sequence number (0: all)',
      sequenceNumber,
    )
    .option('--binary', 'use the binary subprotocol (pty-ws.v1.binary) for PTY bytes')
    .option(EXIT_STATUS_FLAG, "exit with the session's exit code")
    .addHelpText(
      'after',
      '\nstdout gets the raw PTY bytes (escape sequences included); status lines go to stderr.\n' +
        'Exits 0 when the session closes; a session that has already closed (but is still retained)\n' +
        'prints what --replay-from asks for and exits 0 at once.\n' +
        EXIT_STATUS_HELP,
    )
    .action((id: string, flags: TailFlags, cmd: Command) =>
      withExitStatus(flags.exitStatus === true, () => tail(id, flags, cmd)),
    );
}

async function tail(id: string, flags: TailFlags, cmd: Command): Promise<void> {
  const settings = settingsOf(cmd);
  const exitStatus = flags.exitStatus === true;
  // Loaded on use: the SDK and its protocol package are the slow part of starting ptyctl.
  const { connectClient, openClient } = await import('../connect.js');
  const client = await openClient(settings, id, { mode: flags.binary ? 'binary' : 'json', role: 'observer' });
  const ended = whenEnded(client);
  // Keyframes are screen paints, not output: a copy of the byte stream leaves them out.
  client.on('output', (o) => process.stdout.write(o.data));
  // A closed pipe (`ptyctl tail … | head`) ends the process with 0: see main.ts.
  try {
    await connectClient(client, settings, id);
    await client.join(flags.replayFrom !== undefined ? { replayFrom: flags.replayFrom } : {});
  } catch (err) {
    // A session that had already closed: what was replayed is printed, and it ends like a live close.
    if (isSessionClosed(err)) return reportEnd(await ended, exitStatus);
    client.close();
    throw err;
  }
  process.stderr.write(`[ptyctl] tailing ${id} as observer\n`);
  reportEnd(await ended, exitStatus);
}
