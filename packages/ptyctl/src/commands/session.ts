import type { Command } from 'commander';
import {
  createSession,
  getSession,
  killSession,
  listSessions,
  type CreateSessionRequest,
  type SessionView,
} from '../api';
import { settingsOf } from '../context';
import { CliError, ExitCode, missingSubcommand, usageError } from '../exit-codes';
import { printFields, printJson, printTable, shellWords } from '../format';
import { envPair, terminalDimension } from '../parsers';

interface CreateFlags {
  command?: string;
  cwd?: string;
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  backend?: string;
  class?: string;
  taskExecutor?: string;
  json?: boolean;
}

function createRequest(argv: string[], f: CreateFlags): CreateSessionRequest {
  if (argv.length > 0 && f.command !== undefined) throw usageError('give a program (argv) or --command, not both');
  if ((f.cols === undefined) !== (f.rows === undefined)) throw usageError('give both --cols and --rows, or neither');
  const req: CreateSessionRequest = {};
  if (argv.length > 0) req.argv = argv;
  if (f.command !== undefined) req.command = f.command;
  if (f.cwd !== undefined) req.cwd = f.cwd;
  if (f.env !== undefined) req.env = f.env;
  if (f.cols !== undefined && f.rows !== undefined) {
    req.cols = f.cols;
    req.rows = f.rows;
  }
  if (f.backend !== undefined) req.session_backend = f.backend;
  if (f.class !== undefined) req.session_class = f.class;
  if (f.taskExecutor !== undefined) req.task_executor = f.taskExecutor;
  return req;
}

function size(s: SessionView): string | undefined {
  return s.cols !== undefined && s.rows !== undefined ? `${s.cols}x${s.rows}` : undefined;
}

/** "normal, exit code 5" / "killed". */
function closedHow(s: SessionView): string {
  const code = typeof s.exit_code === 'number' ? `, exit code ${s.exit_code}` : '';
  return `${s.closed_reason ?? 'unknown reason'}${code}`;
}

function showSession(s: SessionView): void {
  printFields([
    ['session', s.session_id],
    ['instance', s.instance_id],
    ['state', s.state],
    ['argv', shellWords(s.argv)],
    ['cwd', s.cwd],
    ['size', size(s)],
    ['pid', s.pid],
    ['created', s.created_at],
    ['closed', s.closed_at],
    ['exit code', s.exit_code],
    ['closed reason', s.closed_reason],
    [
      'members',
      s.members ? `${s.members.controllers ?? 0} controllers, ${s.members.observers ?? 0} observers` : undefined,
    ],
    ['replay', s.replay ? `${s.replay.first_sequence ?? '?'}..${s.replay.last_sequence ?? '?'}` : undefined],
    [
      'archived',
      typeof s.replay?.frames_archived === 'number'
        ? `${s.replay.frames_archived} frames${s.replay.overflowed ? ' (older than replay: see ptyctl transcript)' : ''}`
        : undefined,
    ],
    ['attach url', s.attach_url],
  ]);
}

export function registerSession(program: Command): void {
  const session = program.command('session').description('create, list, show and kill sessions (needs pty:admin)');

  session
    .command('create')
    .description('start a session; prints its id (the login shell unless a program or --command is given)')
    .argument('[argv...]', 'program and arguments (put them after -- when they start with a dash)')
    .option('-c, --command <shell-command>', 'run this command line instead of a program')
    .option('--cwd <dir>', 'working directory')
    .option('-e, --env <KEY=VALUE>', 'environment variable for the session (repeatable)', envPair)
    .option('--cols <n>', 'terminal width', terminalDimension)
    .option('--rows <n>', 'terminal height', terminalDimension)
    .option('--backend <name>', 'session_backend')
    .option('--class <name>', 'session_class')
    .option(
      '--task-executor <name>',
      'how A2A tasks of the session run: process (default) or live_shell (typed into its shell)',
    )
    .option('--json', 'print the session as JSON')
    .action(async (argv: string[], flags: CreateFlags, cmd: Command) => {
      const created = await createSession(settingsOf(cmd), createRequest(argv, flags));
      if (flags.json) printJson(created);
      else process.stdout.write(`${created.session_id}\n`);
    });

  session
    .command('list')
    .alias('ls')
    .description('list the sessions of the instance, oldest first')
    .option('--json', 'print a JSON array of sessions')
    .action(async (flags: { json?: boolean }, cmd: Command) => {
      const sessions = await listSessions(settingsOf(cmd));
      if (flags.json) return printJson(sessions);
      printTable(
        ['SESSION', 'STATE', 'EXIT', 'REASON', 'SIZE', 'PID', 'CTL/OBS', 'LAST SEQ', 'CREATED', 'ARGV'],
        sessions.map((s) => [
          s.session_id,
          s.state,
          s.exit_code,
          s.closed_reason,
          size(s),
          s.pid,
          s.members ? `${s.members.controllers ?? 0}/${s.members.observers ?? 0}` : undefined,
          s.replay?.last_sequence,
          s.created_at,
          shellWords(s.argv),
        ]),
      );
    });

  session
    .command('show')
    .description('show one session')
    .argument('<session>', 'session id')
    .option('--json', 'print the session as JSON')
    .action(async (id: string, flags: { json?: boolean }, cmd: Command) => {
      const s = await getSession(settingsOf(cmd), id);
      if (flags.json) printJson(s);
      else showSession(s);
    });

  session
    .command('kill')
    .description('kill a session (attached clients see it close with reason "killed")')
    .argument('<session>', 'session id')
    .option('--json', 'print the session after the kill as JSON')
    .addHelpText('after', `\nExits ${ExitCode.ALREADY_CLOSED} (and kills nothing) when the session had already closed.`)
    .action(async (id: string, flags: { json?: boolean }, cmd: Command) => {
      const settings = settingsOf(cmd);
      const before = await getSession(settings, id);
      // The server answers a kill of a closed session with its record, as if it had worked.
      const s = before.state === 'closed' ? before : await killSession(settings, id);
      if (flags.json) printJson(s);
      // Closed on its own (or by an earlier kill) before this one reached it.
      if (before.state === 'closed' || (s.state === 'closed' && s.closed_reason !== 'killed')) {
        throw new CliError(
          ExitCode.ALREADY_CLOSED,
          `session ${id} had already closed (${closedHow(s)}); nothing to kill`,
        );
      }
      if (!flags.json) process.stdout.write(`killed ${s.session_id}\n`);
    });

  // After the subcommands: they inherit settings made before they were added, and must keep
  // rejecting excess arguments.
  session.helpCommand(true).allowExcessArguments().action(missingSubcommand('session', 'create, list, show or kill'));
}
