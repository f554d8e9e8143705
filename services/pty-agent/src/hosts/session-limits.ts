import { findExecutable } from './executables';

/** Resource limits of a session's programs (setrlimit, inherited by everything they start); 0: not set. */
export interface SessionLimits {
  /** RLIMIT_NPROC: processes (and threads) of the session's real uid, counted over the whole host. */
  maxProcesses: number;
  /** RLIMIT_AS: address space of each process, in bytes. */
  maxMemoryBytes: number;
  /** RLIMIT_FSIZE: largest file a process may write, in bytes (past it: SIGXFSZ / EFBIG). */
  maxFileBytes: number;
  /** RLIMIT_NOFILE: open file descriptors of each process. */
  maxOpenFiles: number;
}

const FLAGS: ReadonlyArray<[keyof SessionLimits, string]> = [
  ['maxProcesses', '--nproc'],
  ['maxMemoryBytes', '--as'],
  ['maxFileBytes', '--fsize'],
  ['maxOpenFiles', '--nofile'],
];

/**
 * What a session's argv becomes so its programs start under the limits: `prlimit` (util-linux)
 * sets them (soft and hard) on itself and execs the program, which keeps them across exec, fork
 * and a switch of user. Node has no setrlimit, so the wrapper is the way in. Returns the identity
 * when no limit is set; throws at start when limits are set and `prlimit` is missing, so a
 * configured limit is never silently absent.
 */
export function sessionLimitsWrapper(
  limits: SessionLimits,
  findPrlimit: () => string | undefined = () => findExecutable('prlimit'),
): (argv: readonly string[]) => string[] {
  const flags = FLAGS.filter(([key]) => limits[key] > 0).map(([key, flag]) => `${flag}=${limits[key]}`);
  if (flags.length === 0) return (argv) => [...argv];
  const prlimit = findPrlimit();
  if (!prlimit) {
    throw new Error(
      'session resource limits are configured (PTYWS_SESSION_MAX_*) but prlimit (util-linux) is not on PATH',
    );
  }
  return (argv) => [prlimit, ...flags, '--', ...argv];
}
