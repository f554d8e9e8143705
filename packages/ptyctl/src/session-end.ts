import type { ClosedEvent, PtyClient, PtyWsError } from '@pty-ws/client';
import { toCliError } from './errors';
import { CliError, ExitCode } from './exit-codes';

/** How a client's life ended, as told by its events; read once its state is `closed`. */
export interface SessionEnd {
  exitCode: ExitCode;
  /** One line for stderr. */
  message: string;
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
    return { exitCode: ExitCode.OK, message: `session closed (${closed.reason}${code})` };
  }
  if (revoked) return { exitCode: ExitCode.AUTH, message: 'the token was revoked; disconnected' };
  const err: CliError = error ? toCliError(error) : new CliError(ExitCode.FAILURE, 'connection closed');
  return { exitCode: err.exitCode, message: err.message };
}

/** Prints how the attach/tail ended and sets the exit code; a non-zero end is an error line. */
export function reportEnd(end: SessionEnd): void {
  if (end.exitCode === ExitCode.OK) {
    process.stderr.write(`[ptyctl] ${end.message}\n`);
    return;
  }
  throw new CliError(end.exitCode, end.message);
}

/** The join found the session already closed (the SDK rejects it after the replay and `closed`). */
export function isSessionClosed(err: unknown): boolean {
  return err instanceof Error && err.name === 'PtyWsError' && (err as { code?: unknown }).code === 'SESSION_CLOSED';
}
