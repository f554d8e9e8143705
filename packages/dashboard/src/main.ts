/** Dashboard entry point: wires token handling, the session list, forms and panes together. */
import { Api, ApiError, type SessionView, type Whoami } from './api';
import { wireCreateForm } from './create-form';
import { byId } from './dom';
import { wireMintForm } from './mint-form';
import { PaneManager } from './panes';
import { SessionList } from './session-list';
import { StatusLine } from './status';
import { installProbe } from './test-hook';
import { Toasts } from './toast';
import { clearToken, loadToken, readLocation, saveToken } from './token';
import { writePaneRefs } from './url-state';

function commandOf(s: SessionView): string {
  return s.argv.join(' ') || '(login shell)';
}

const REFUSED = 'The token was refused: it is unknown, expired or revoked. Enter a valid token.';
const NEEDED = 'This server needs an access token. Paste one below (an administrator can mint one).';

/** What a token may do, in the operator's words (shown in the top bar). */
function describe(may: Whoami['may']): string {
  if (may.admin) return 'Admin: observe, control, create sessions, share';
  if (may.control) return 'May observe and control';
  return 'Observe only';
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
  const createCard = byId('create-card', HTMLElement);
  const mintCard = byId('mint-card', HTMLElement);
  wireMintForm(byId('mint-form', HTMLFormElement), api);
  const abilities = byId('token-abilities', HTMLElement);
  /** From `/api/v1/whoami`; undefined while unknown (everything is offered, the server decides). */
  let may: Whoami['may'] | undefined;

  const panes: PaneManager = new PaneManager(byId('panes', HTMLElement), byId('panes-empty', HTMLElement), {
    origin: window.location.origin,
    token: loadToken,
    label: 'dashboard',
    toasts,
    api,
    may: () => may,
    onChange: () => writePaneRefs(panes.panes.map((p) => p.ref)),
  });
  installProbe({ panes: panes.panes, recordings: panes.recordings, toasts: toasts.history });

  const tokenForm = byId('token-form', HTMLFormElement);
  const tokenInput = byId('token-input', HTMLInputElement);
  const forget = byId('forget-token', HTMLButtonElement);
  const askForToken = (): void => {
    tokenForm.hidden = false;
    forget.hidden = true;
    tokenInput.focus();
  };
  const openSession = (s: SessionView, role: 'controller' | 'observer'): void => {
    panes.open({ sessionId: s.session_id, instanceId: s.instance_id, command: commandOf(s), role });
  };

  const sessions: SessionList = new SessionList(
    api,
    byId('sessions', HTMLElement),
    byId('sessions-status', HTMLElement),
    {
      onOpen: openSession,
      onRecording: (s) => panes.openRecording(s.session_id),
      onKill: (s) =>
        api.killSession(s.session_id).then(
          () => sessions.refresh(),
          (err: unknown) =>
            status.set(`Could not kill the session: ${err instanceof Error ? err.message : String(err)}`, 'error'),
        ),
      paneCounts: (id) => panes.countsFor(id),
      onUnauthorized: askForToken,
      hasToken: () => loadToken() !== undefined,
      mayControl: () => may?.control ?? true,
      mayAdmin: () => may?.admin ?? false,
    },
  );

  const applyAbilities = (next: Whoami['may'] | undefined): void => {
    may = next;
    abilities.hidden = next === undefined;
    abilities.textContent = next ? describe(next) : '';
    // Creating sessions needs pty:admin: the form is not offered to a token that would be refused.
    createCard.hidden = next !== undefined && !next.admin;
    mintCard.hidden = !next?.admin;
    panes.refreshAbilities();
    sessions.rerender();
  };

  /** Asks the server what `token` may do; undefined for a server without `/api/v1/whoami`. */
  const check = (token: string | undefined): Promise<Whoami | undefined> =>
    new Api(() => token).whoami().catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    });

  const signedIn = (w: Whoami | undefined, text: string): void => {
    applyAbilities(w?.may);
    tokenForm.hidden = true;
    forget.hidden = loadToken() === undefined;
    status.set(text);
    sessions.start();
  };

  tokenForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const token = tokenInput.value.trim();
    if (!token) return;
    status.set('Checking the token…');
    check(token).then(
      (w) => {
        saveToken(token);
        tokenInput.value = '';
        signedIn(w, w ? `Signed in. ${describe(w.may)}.` : 'Token saved for this tab.');
      },
      (err: unknown) => {
        const refused = err instanceof ApiError && err.status === 401;
        status.set(
          refused
            ? 'That token was refused: it is unknown, expired or revoked. Check it and try again.'
            : `Could not check the token: ${err instanceof Error ? err.message : String(err)}`,
          'error',
        );
        tokenInput.select();
      },
    );
  });
  forget.addEventListener('click', () => {
    clearToken();
    panes.closeAll();
    sessions.dispose();
    applyAbilities(undefined);
    status.set('Token forgotten.');
    askForToken();
  });

  wireCreateForm(createCard.querySelector('form') ?? byId('create-form', HTMLFormElement), api, (s, open) => {
    void sessions.refresh();
    if (open) openSession(s, 'controller');
  });

  const openForm = byId('open-form', HTMLFormElement);
  openForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const data = new FormData(openForm);
    const sessionId = String(data.get('session') ?? '').trim();
    const instanceId = String(data.get('instance') ?? '').trim() || sessions.instanceId || 'local';
    const role = data.get('role') === 'controller' ? 'controller' : 'observer';
    if (sessionId) panes.open({ sessionId, instanceId, command: '', role });
  });

  // Without a stored token the server is still asked once: it may run with auth disabled.
  const start = (): void => {
    check(loadToken()).then(
      (w) => signedIn(w, status.text),
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 401) {
          status.set(loadToken() ? REFUSED : NEEDED, loadToken() ? 'error' : 'info');
          byId('sessions-status', HTMLElement).textContent = 'Sign in to see the sessions.';
          askForToken();
        } else {
          status.set(`Could not reach the server: ${err instanceof Error ? err.message : String(err)}`, 'error');
          sessions.start();
        }
      },
    );
  };
  start();
  panes.openAll(params.panes, sessions.instanceId ?? 'local');

  // A pasted link (`#session=…`, maybe with `#token=…`) opens its panes in this tab too.
  window.addEventListener('hashchange', () => {
    const next = readLocation(window.location, window.history);
    if (next.token) {
      saveToken(next.token);
      start();
    }
    panes.openAll(next.panes, sessions.instanceId ?? 'local');
    writePaneRefs(panes.panes.map((p) => p.ref));
  });
}

main();
