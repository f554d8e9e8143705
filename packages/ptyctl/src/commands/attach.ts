import type { Command } from 'commander';
import { settingsOf } from '../context';
import { sequenceNumber } from '../parsers';
import { reportEnd, withExitStatus } from '../session-end';
import { EXIT_STATUS_FLAG, EXIT_STATUS_HELP } from './exit-status-help';

interface AttachFlags {
  observe?: boolean;
  replayFrom?: number;
  binary?: boolean;
  exitStatus?: boolean;
}

export function registerAttach(program: Command): void {
  program
    .command('attach')
    .description(
      'attach this terminal to a session (detach: Ctrl-] d, repaint: Ctrl-] r, literal Ctrl-]: Ctrl-] Ctrl-])',
    )
    .argument('<session>', 'session id')
    .option('--observe', 'join read-only as an observer')
    .option('--replay-from <seq>', 'replay output after this sequence number before the live picture', sequenceNumber)
    .option('--binary', 'use the binary subprotocol (pty-ws.v1.binary) for PTY bytes')
    .option(EXIT_STATUS_FLAG, "exit with the session's exit code")
    .addHelpText(
      'after',
      '\nThe local size is sent on join and whenever the window changes (not below 20x5).\n' +
        'Lost connections are retried with replay; status lines go to stderr.\n' +
        EXIT_STATUS_HELP,
    )
    .action((id: string, flags: AttachFlags, cmd: Command) =>
      withExitStatus(flags.exitStatus === true, async () => {
        // Loaded on use: the SDK and its protocol package are the slow part of starting ptyctl.
        const { attach } = await import('../attach/attach-session.js');
        const end = await attach(settingsOf(cmd), id, {
          observe: flags.observe === true,
          replayFrom: flags.replayFrom,
          binary: flags.binary === true,
        });
        reportEnd(end, flags.exitStatus === true);
      }),
    );
}
