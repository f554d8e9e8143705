import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { getScreen, waitFor } from '../api';
import { settingsOf } from '../context';
import { CliError, ExitCode, usageError } from '../exit-codes';
import { printJson } from '../format';
import { sequenceNumber } from '../parsers';

interface ScreenFlags {
  ansi?: boolean;
  json?: boolean;
}

interface WaitFlags {
  pattern?: string;
  regex?: boolean;
  quiet?: number;
  timeout: number;
  fromSeq?: number;
  json?: boolean;
}

/** The server's bound on one wait. */
const MAX_WAIT_S = 300;

function milliseconds(value: string): number {
  const n = sequenceNumber(value);
  if (n < 1 || n > MAX_WAIT_S * 1000) throw new InvalidArgumentError(`expected 1..${MAX_WAIT_S * 1000}, got ${value}`);
  return n;
}

function waitSeconds(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n <= 0 || n > MAX_WAIT_S) {
    throw new InvalidArgumentError(`expected seconds in (0, ${MAX_WAIT_S}], got '${value}'`);
  }
  return n;
}

export function registerScreenWait(program: Command): void {
  program
    .command('screen')
    .description("print a session's screen as text (what a terminal attached to it shows now)")
    .argument('<session>', 'session id')
    .option('--ansi', 'keep colours and styles (SGR escape sequences)')
    .option('--json', 'print the screen (lines, cursor, title, alt_screen) as one JSON document')
    .addHelpText('after', '\nNeeds pty:observe.')
    .action(async (id: string, flags: ScreenFlags, cmd: Command) => {
      const view = await getScreen(settingsOf(cmd), id, flags.ansi ? 'ansi' : 'text');
      if (flags.json) return printJson(view);
      process.stdout.write(view.lines.map((l) => l + '\n').join(''));
    });

  program
    .command('wait')
    .description("wait until a session's new output matches, goes quiet, or the session ends")
    .argument('<session>', 'session id')
    .option('--pattern <text>', 'text to wait for (escape sequences in the output are ignored)')
    .option('--regex', 'the pattern is a regular expression (RE2 syntax, matched line by line)')
    .option('--quiet <ms>', 'also answer once no output came for this long', milliseconds)
    .option('--timeout <seconds>', `give up after this long (at most ${MAX_WAIT_S})`, waitSeconds, 30)
    .option('--from-seq <seq>', 'output after this sequence counts (default: output from now on)', sequenceNumber)
    .option('--json', 'print the whole answer as one JSON document')
    .addHelpText(
      'after',
      '\nPrints the matched text. Exit status: 0 matched (or quiet), 6 timed out, 7 the session ended.\n' +
        'Needs pty:observe.',
    )
    .action(async (id: string, flags: WaitFlags, cmd: Command) => {
      if (flags.regex && flags.pattern === undefined) throw usageError('--regex needs --pattern');
      const answer = await waitFor(settingsOf(cmd), id, {
        ...(flags.pattern !== undefined ? { pattern: flags.pattern } : {}),
        ...(flags.regex ? { regex: true } : {}),
        ...(flags.quiet !== undefined ? { quietMs: flags.quiet } : {}),
        timeoutMs: Math.round(flags.timeout * 1000),
        ...(flags.fromSeq !== undefined ? { fromSeq: flags.fromSeq } : {}),
      });
      if (flags.json) printJson(answer);
      else if (answer.match) process.stdout.write(answer.match.text + '\n');
      if (answer.condition === 'timeout') {
        throw new CliError(
          ExitCode.WAIT_TIMED_OUT,
          `timed out after ${flags.timeout} s (last sequence ${answer.last_seq})`,
        );
      }
      if (answer.condition === 'closed') {
        const code =
          answer.exit_code === undefined || answer.exit_code === null ? '' : ` (exit code ${answer.exit_code})`;
        throw new CliError(ExitCode.WAIT_CLOSED, `the session ended before a match${code}`);
      }
    });
}
