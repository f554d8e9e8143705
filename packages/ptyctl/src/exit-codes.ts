/**
 * Exit codes scripts can rely on. They are part of ptyctl's interface: never renumber them.
 */
export const ExitCode = {
  OK: 0,
  /** The server answered with an error, or could not be reached. */
  FAILURE: 1,
  /** Bad flags or arguments; nothing was sent. */
  USAGE: 2,
  /** 401/403: the token is missing, invalid, revoked or lacks the scope. */
  AUTH: 3,
  /** The session, token or endpoint does not exist. */
  NOT_FOUND: 4,
  /** `transcript --grep`: nothing matched (grep's status). */
  NO_MATCH: 1,
  /** `session kill`: the session had already closed; nothing was killed. */
  ALREADY_CLOSED: 5,
  /** `attach`/`tail --exit-status`: the session closed without an exit status of its own (killed, signal, error). */
  NO_EXIT_STATUS: 254,
  /** `attach`/`tail --exit-status`: ptyctl did not see the session end (refused, connection failed, detached). */
  STATUS_UNKNOWN: 255,
  /** `ptyctl wait`: the timeout passed before the pattern (or quiet) came. */
  WAIT_TIMED_OUT: 6,
  /** `ptyctl wait`: the session ended first. */
  WAIT_CLOSED: 7,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error that ends the command with a given exit code and a one-line message on stderr. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * Ends the command with a status that is not ptyctl's own (the session's exit code under
 * `--exit-status`, or grep's "no match"); whatever there was to say is already on stderr.
 */
export class StatusExit extends Error {
  constructor(readonly status: number) {
    super(`exit status ${status}`);
    this.name = 'StatusExit';
  }
}

export function usageError(message: string): CliError {
  return new CliError(ExitCode.USAGE, message);
}

/**
 * Action of a command group run without a known subcommand: one error line (exit 2) instead of
 * commander's default of printing the whole help to stderr. The group must allow excess
 * arguments so an unknown subcommand reaches this action and can be named.
 */
export function missingSubcommand(group: string, choices: string): (...args: unknown[]) => never {
  const prefix = group === 'ptyctl' ? '' : `${group}: `;
  const help = group === 'ptyctl' ? 'ptyctl --help' : `ptyctl ${group} --help`;
  return (...args: unknown[]) => {
    const cmd = args[args.length - 1] as { args?: string[] } | undefined;
    const name = cmd?.args?.[0];
    const what = name === undefined ? 'missing command' : `unknown command '${name}'`;
    throw usageError(`${prefix}${what} (${choices}); see ${help}`);
  };
}
