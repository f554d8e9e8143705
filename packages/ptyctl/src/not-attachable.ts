import type { PtyWsError } from '@pty-ws/client';
import { CliError, ExitCode } from './exit-codes';
import { send } from './rest';
import type { Settings } from './settings';

/**
 * The attach endpoint answers 404 for an unknown session. A server older than the transcript
 * work answered 404 for a closed one too, though `session list` still showed it: when the token
 * can read the record, say what happened instead of "not found".
 */
export async function explainNotFound(settings: Settings, sessionId: string, err: PtyWsError): Promise<unknown> {
  if (err.code !== 'NOT_FOUND') return err;
  try {
    const res = await send(settings, 'GET', `/api/v1/sessions/${encodeURIComponent(sessionId)}`);
    const body = res.body as { state?: unknown; closed_reason?: unknown; exit_code?: unknown } | undefined;
    if (res.status !== 200 || body?.state !== 'closed') return err;
    const exit = typeof body.exit_code === 'number' ? `, exit code ${body.exit_code}` : '';
    return new CliError(
      ExitCode.FAILURE,
      `session ${sessionId} has closed (${String(body.closed_reason ?? 'unknown')}${exit}); closed sessions cannot be attached`,
    );
  } catch {
    return err;
  }
}
