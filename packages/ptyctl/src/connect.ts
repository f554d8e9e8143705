import { hostname, userInfo } from 'node:os';
import WebSocket from 'ws';
import { isPtyWsError, PtyClient, type PayloadMode } from '@pty-ws/client';
import type { PtyRole } from '@pty-ws/protocol';
import { upgradeRefusal } from './errors';
import { resolveInstance } from './instance';
import { explainNotFound } from './not-attachable';
import type { Settings } from './settings';

export interface OpenOptions {
  mode: PayloadMode;
  /** Undefined lets the server choose: controller with pty:control, observer otherwise. */
  role?: PtyRole;
}

/** `ptyctl user@host`, so `MembershipChanged` shows people who is attached. */
function clientLabel(): string {
  let user = 'user';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (containers): the host alone still tells people apart.
  }
  return `ptyctl ${user}@${hostname()}`.slice(0, 128);
}

/** A client for one session, with the instance resolved and the token in the upgrade header. */
export async function openClient(settings: Settings, sessionId: string, opts: OpenOptions): Promise<PtyClient> {
  const instanceId = await resolveInstance(settings, sessionId);
  return new PtyClient({
    baseUrl: settings.baseUrl,
    instanceId,
    sessionId,
    // `ws` can set headers, so the token travels as `Authorization: Bearer`, never in the URL.
    ...(settings.token !== undefined ? { token: settings.token, tokenTransport: 'header' as const } : {}),
    WebSocket,
    mode: opts.mode,
    ...(opts.role !== undefined ? { role: opts.role } : {}),
    clientLabel: clientLabel(),
  });
}

/** connect(), with a refused upgrade for a closed session explained rather than "not found". */
export async function connectClient(client: PtyClient, settings: Settings, sessionId: string): Promise<void> {
  try {
    await client.connect();
  } catch (err) {
    if (!isPtyWsError(err)) throw err;
    const explained = await explainNotFound(settings, sessionId, err);
    throw explained === err && err.httpStatus !== undefined ? upgradeRefusal(err.httpStatus, sessionId) : explained;
  }
}
