import type { ClosedEvent, PtyClient, PtyWsError } from '@pty-ws/client';
import { toCliError } from './errors';
import { CliError, ExitCode, StatusExit } from './exit-codes';

/** How a client's life ended, as told by its events; read once its state is `closed`. */
export interface SessionEnd {
  exitCode: ExitCode;
  /** One line for stderr. */
  message: string;
  /** Set when the session itself closed (not when the connection or the user ended the attach). */
  closed?: { exitCode: number | null; reason: string };
}

/**
 * Watches a client's events and resolves when it reaches state `closed` with the reason: the
 * session ended (0), the token was revoked (3), or the last error the SDK reported.
 */
export function whenEnded(client: PtyClient): Promise<SessionEnd> {
  let closed: ClosedEvent | undefined;
  let revoked = false;
  let lastError: PtyWsError | undefined;
  client.on('closed', (e) => (closed = e));
  client.on('goodbye', (g) => (revoked ||= g.reason === 'principal_revoked'));
  client.on('error', (e) => (lastError = e));
  return new Promise((resolve) => {
    const off = client.on('state', ({ state }) => {
      if (state !== 'closed') return;
      off();
      resolve(describe(closed, revoked, lastError));
    });
  });
}

function describe(closed: ClosedEvent | undefined, revoked: boolean, error: PtyWsError | undefined): SessionEnd {
  if (closed) {
    const code = closed.exitCode === null ? '' : `, exit code ${closed.exitCode}`;
    return {
      exitCode: ExitCode.OK,
      message: `session closed (${closed.reason}${code})`,
      closed: { exitCode: closed.exitCode, reason: closed.reason },
    };
  }
  if (revoked) return { exitCode: ExitCode.AUTH, message: 'the token was revoked; disconnected' };
  const err: CliError = error ? toCliError(error) : new CliError(ExitCode.FAILURE, 'connection closed');
  return { exitCode: err.exitCode, message: err.message };
}

/**
 * Prints how the attach/tail ended and sets the exit code; a non-zero end is an error line.
 * With `exitStatus`, ptyctl exits as the session did (see `statusOf`).
 */
export function reportEnd(end: SessionEnd, exitStatus = false): void {
  if (end.exitCode !== ExitCode.OK) {
    throw new CliError(exitStatus ? ExitCode.STATUS_UNKNOWN : end.exitCode, end.message);
  }
  process.stderr.write(`[ptyctl] ${end.message}\n`);
  if (exitStatus) throw new StatusExit(statusOf(end));
}

/**
 * `--exit-status`: the session's own exit code when it exited normally; NO_EXIT_STATUS when it
 * closed otherwise (killed, timed out, cut by an error); STATUS_UNKNOWN when it did not close
 * while ptyctl watched (detached).
 */
function statusOf(end: SessionEnd): number {
  if (!end.closed) return ExitCode.STATUS_UNKNOWN;
  const { exitCode, reason } = end.closed;
  return reason === 'normal' && exitCode !== null ? exitCode : ExitCode.NO_EXIT_STATUS;
}

/**
 * Runs an attach/tail; under `--exit-status` its failures (refused, not found, connection lost)
 * exit STATUS_UNKNOWN, so they cannot be mistaken for the session's own exit code. Usage errors
 * keep their code: nothing was attempted.
 */
export async function withExitStatus(exitStatus: boolean, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    if (!exitStatus || err instanceof StatusExit) throw err;
    const e = toCliError(err);
    throw e.exitCode === ExitCode.USAGE ? e : new CliError(ExitCode.STATUS_UNKNOWN, e.message);
  }
}

/** The join found the session already closed (the SDK rejects it after the replay and `closed`). */
export function isSessionClosed(err: unknown): boolean {
  return err instanceof Error && err.name === 'PtyWsError' && (err as { code?: unknown }).code === 'SESSION_CLOSED';
}
