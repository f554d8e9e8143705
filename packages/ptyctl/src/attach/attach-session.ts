import type { ReadStream, WriteStream } from 'node:tty';
import { connectClient, openClient } from '../connect';
import { usageError } from '../exit-codes';
import { isSessionClosed, whenEnded, type SessionEnd } from '../session-end';
import type { Settings } from '../settings';
import { AttachView } from './attach-view';
import { LocalTerminal } from './local-terminal';
import { statusLine } from './status';

export interface AttachOptions {
  observe: boolean;
  replayFrom: number | undefined;
  binary: boolean;
}

/**
 * One interactive attach: raw local TTY, keystrokes to the session, output and Keyframes to the
 * screen, the local size to the server, and the escape keys. Resolves when the attach is over.
 */
export async function attach(settings: Settings, sessionId: string, opts: AttachOptions): Promise<SessionEnd> {
  if (!process.stdin.isTTY) {
    throw usageError('attach needs a terminal on stdin; use `ptyctl tail` to watch a session without one');
  }
  const term = new LocalTerminal(process.stdin as ReadStream, process.stdout as WriteStream);
  const client = await openClient(settings, sessionId, {
    mode: opts.binary ? 'binary' : 'json',
    ...(opts.observe ? { role: 'observer' as const } : {}),
  });
  const view = new AttachView(client, term);
  const ended = whenEnded(client);
  statusLine(`attaching to ${sessionId} (detach: Ctrl-] d, repaint: Ctrl-] r)`, false);
  try {
    await connectClient(client, settings, sessionId);
    term.enterRaw();
    const size = term.size();
    await client.join({ ...(size ?? {}), ...(opts.replayFrom !== undefined ? { replayFrom: opts.replayFrom } : {}) });
  } catch (err) {
    client.close();
    term.restore();
    // Already closed (still retained): nothing to attach to; it ends like a live close.
    if (isSessionClosed(err)) return ended;
    throw err;
  }
  return view.run(ended);
}
