import { Command, CommanderError } from 'commander';
import { registerAttach } from './commands/attach';
import { registerSession } from './commands/session';
import { registerTail } from './commands/tail';
import { registerToken } from './commands/token';
import { registerTranscript } from './commands/transcript';
import { registerScreenWait } from './commands/screen-wait';
import { oneLine, toCliError } from './errors';
import { ExitCode, missingSubcommand, StatusExit } from './exit-codes';
import { DEFAULT_URL } from './settings';

export const VERSION = '0.1.0';

/** The command tree. Settings made here before `.command()` are inherited by every subcommand. */
export function buildProgram(): Command {
  const program = new Command('ptyctl')
    .description('Manage pty-ws sessions and tokens, attach a terminal, tail a session.')
    .version(VERSION)
    .option('--url <url>', `server URL (env PTYWS_URL, default ${DEFAULT_URL})`)
    .option('--token <token>', 'bearer token (env PTYWS_TOKEN; prefer the env: flags show up in `ps`)')
    .option('--instance <id>', 'instance id for attach/tail (env PTYWS_INSTANCE; default: the AgentCard, else "local")')
    .helpCommand(true)
    .exitOverride()
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      // Commander's own errors ("error: unknown option …") become one `ptyctl:` line like ours.
      outputError: (text, write) => write(`ptyctl: ${oneLine(text.replace(/^error: /, ''))}\n`),
    })
    .addHelpText(
      'after',
      '\nExit codes: 0 ok, 1 server or request error, 2 usage error, 3 auth error (401/403), 4 not found,\n' +
        '5 already closed (session kill); see packages/ptyctl/README.md for --exit-status and transcript --grep.',
    );
  registerSession(program);
  registerToken(program);
  registerAttach(program);
  registerTail(program);
  registerTranscript(program);
  registerScreenWait(program);
  program
    .allowExcessArguments()
    .action(missingSubcommand('ptyctl', 'session, token, attach, tail, transcript, screen, wait'));
  return program;
}

/** Runs one invocation and returns the exit code; errors are printed as one line on stderr. */
export async function run(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return ExitCode.OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and --version end with exitCode 0; every other commander error is a usage error,
      // already printed through outputError.
      return err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    }
    if (err instanceof StatusExit) return err.status;
    const e = toCliError(err);
    process.stderr.write(`ptyctl: ${oneLine(e.message)}\n`);
    return e.exitCode;
  }
}
