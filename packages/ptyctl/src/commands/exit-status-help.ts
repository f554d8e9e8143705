import { ExitCode } from '../exit-codes';

/** `--exit-status` of `attach` and `tail`: the flag and its help text, shared. */
export const EXIT_STATUS_FLAG = '--exit-status';

export const EXIT_STATUS_HELP =
  "With --exit-status, ptyctl exits with the session's exit code when its program exits,\n" +
  `${ExitCode.NO_EXIT_STATUS} when the session closed without one (killed, a signal, timeout, error), and\n` +
  `${ExitCode.STATUS_UNKNOWN} when ptyctl did not see it end (refused, not found, connection lost, detached).`;
