import { ExitCode } from '../exit-codes';

/** `--exit-status` of `attach` and `tail`: the flag and its help text, shared. */
export const EXIT_STATUS_FLAG = '--exit-status';

export const EXIT_STATUS_HELP =
  `With --exit-status, ptyctl exits with the session's exit code when it exits on its own, ` +
  `${ExitCode.NO_EXIT_STATUS} when it was killed or ended by an error (no exit code of its own), ` +
  `${ExitCode.STATUS_UNKNOWN} when ptyctl could not follow it to its end (refused, not found, connection lost, detached).`;
