import type { PtyWsError } from '@pty-ws/client';
import { CliError, ExitCode } from './exit-codes';

/** Exit code for an HTTP status from the server (REST or a refused WebSocket upgrade). */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return ExitCode.AUTH;
  if (status === 404) return ExitCode.NOT_FOUND;
  return ExitCode.FAILURE;
}

function exitCodeForPtyWs(err: PtyWsError): ExitCode {
  if (err.code === 'UNAUTHENTICATED' || err.code === 'PERMISSION_DENIED') return ExitCode.AUTH;
  if (err.code === 'NOT_FOUND') return ExitCode.NOT_FOUND;
  if (err.httpStatus !== undefined) return exitCodeForStatus(err.httpStatus);
  return ExitCode.FAILURE;
}

/**
 * Structural stand-in for the SDK's isPtyWsError: importing the SDK here would load it (and the
 * protocol's schema compiler) on every start, also for the REST commands that never use it.
 */
function isPtyWsError(err: unknown): err is PtyWsError {
  return err instanceof Error && err.name === 'PtyWsError' && typeof (err as { code?: unknown }).code === 'string';
}

/** Node system errors carry a `code` like ECONNREFUSED that says more than the message. */
function systemErrorMessage(err: Error): string {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
}

/**
 * A refused WebSocket upgrade in words, from its HTTP status alone: the SDK's message carries the
 * WebSocket library's "Unexpected server response: 404", which tells a user nothing.
 */
export function upgradeRefusal(status: number, sessionId?: string): CliError {
  const session = sessionId === undefined ? 'the session' : `session ${sessionId}`;
  const messages: Record<number, string> = {
    401: 'the server refused the token (HTTP 401): check --token or PTYWS_TOKEN',
    403: `the token may not attach to ${session} (HTTP 403): it needs pty:observe or pty:control for it`,
    404: sessionId === undefined ? 'the session is gone (HTTP 404)' : `session not found: ${sessionId}`,
    429: 'the server refused the connection: too many connections or attaches (HTTP 429); try again later',
    503: 'the server is unavailable (HTTP 503); try again shortly',
  };
  return new CliError(
    exitCodeForStatus(status),
    messages[status] ?? `the server refused the connection (HTTP ${status})`,
  );
}

/** Any thrown value as a CliError, so main() can print one line and pick the exit code. */
export function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (isPtyWsError(err) && err.httpStatus !== undefined) return upgradeRefusal(err.httpStatus);
  if (isPtyWsError(err)) return new CliError(exitCodeForPtyWs(err), `${err.message} (${err.code})`);
  if (err instanceof Error) return new CliError(ExitCode.FAILURE, systemErrorMessage(err));
  return new CliError(ExitCode.FAILURE, String(err));
}

/** Error text as one line: scripts read stderr line by line, and a stack trace helps no user. */
export function oneLine(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
