/** Dashboard entry point: wires token handling, the session list, forms and panes together. */
import { Api, type SessionView } from './api';
import { wireCreateForm } from './create-form';
import { byId } from './dom';
import { PaneManager } from './panes';
import { SessionList } from './session-list';
import { StatusLine } from './status';
import { installProbe } from './test-hook';
import { Toasts } from './toast';
import { clearToken, loadToken, readLocation, saveToken } from './token';

function commandOf(s: SessionView): string {
  return s.argv.join(' ') || '(login shell)';
}

function main(): void {
  const status = new StatusLine(byId('status', HTMLElement));
  const params = readLocation(window.location, window.history);
  if (params.token) saveToken(params.token);
  if (params.queryTokenIgnored) {
    status.set('A token in the query string was ignored: it would end up in logs. Use #token=… instead.', 'error');
  }

  const api = new Api(loadToken);
  const toasts = new Toasts(byId('toasts', HTMLElement));
  const panes = new PaneManager(byId('panes', HTMLElement), byId('panes-empty', HTMLElement), {
    origin: window.location.origin,
    token: loadToken,
    label: 'dashboard',
    toasts,
  });
  installProbe({ panes: panes.panes, toasts: toasts.history });

  const tokenForm = byId('token-form', HTMLFormElement);
  const tokenInput = byId('token-input', HTMLInputElement);
  const forget = byId('forget-token', HTMLButtonElement);
  const askForToken = (): void => {
    tokenForm.hidden = false;
    forget.hidden = true;
    tokenInput.focus();
  };
  const openSession = (s: SessionView, role: 'controller' | 'observer' | undefined): void => {
    panes.open({ sessionId: s.session_id, instanceId: s.instance_id, command: commandOf(s), role });
  };

  const sessions = new SessionList(api, byId('sessions', HTMLElement), byId('sessions-status', HTMLElement), {
    onOpen: openSession,
    paneCounts: (id) => panes.countsFor(id),
    onUnauthorized: askForToken,
  });

  tokenForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const token = tokenInput.value.trim();
    if (!token) return;
    saveToken(token);
    tokenInput.value = '';
    tokenForm.hidden = true;
    forget.hidden = false;
    status.set('Token saved for this tab.');
    sessions.start();
  });
  forget.addEventListener('click', () => {
    clearToken();
    panes.closeAll();
    sessions.dispose();
    status.set('Token forgotten.');
    askForToken();
  });

  wireCreateForm(byId('create-form', HTMLFormElement), api, (s, open) => {
    void sessions.refresh();
    if (open) openSession(s, undefined);
  });

  const openForm = byId('open-form', HTMLFormElement);
  openForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const data = new FormData(openForm);
    const sessionId = String(data.get('session') ?? '').trim();
    const instanceId = String(data.get('instance') ?? '').trim() || sessions.instanceId || 'local';
    const role = data.get('role') === 'observer' ? 'observer' : undefined;
    if (sessionId) panes.open({ sessionId, instanceId, command: '', role });
  });

  // Without a stored token the list is still tried once: the server may run with auth disabled.
  if (loadToken()) forget.hidden = false;
  else tokenForm.hidden = false;
  sessions.start();
  if (params.open) {
    const { sessionId, instanceId, role } = params.open;
    panes.open({ sessionId, instanceId: instanceId ?? 'local', command: '', role });
  }
}

main();
