/**
 * The session list, refreshed every 2 s. Items are keyed by session id and updated in place, so
 * keyboard focus on an item's buttons survives a refresh.
 */
import { ApiError, type Api, type MemberCounts, type SessionView } from './api';
import { h, shortId } from './dom';
import type { PtyRole } from '@pty-ws/protocol';

export const REFRESH_MS = 2000;

export interface SessionListOptions {
  /** Opens a pane with the role the operator chose (never a silent take-over). */
  onOpen: (session: SessionView, role: PtyRole) => void;
  /** Opens the session's recording (its transcript, played back). */
  onRecording: (session: SessionView) => void;
  /** Kills the session (admins). */
  onKill: (session: SessionView) => Promise<void>;
  /** Live counts from a pane this page has open on the session, if any. */
  paneCounts: (sessionId: string) => MemberCounts | undefined;
  /** 401: the token is missing or no longer valid. */
  onUnauthorized: () => void;
  /** A token is stored (else a 401 means "sign in", not "refused"). */
  hasToken: () => boolean;
  /** The token may control: "Control" is offered. */
  mayControl: () => boolean;
  /** The token is an admin's: "Kill" is offered. */
  mayAdmin: () => boolean;
}

/**
 * Member counts of a session: the server's live `members: {controllers, observers}` (sessions
 * API); a server that does not send them falls back to a pane this dashboard has open on the
 * session; otherwise they are unknown.
 */
export function memberCounts(
  s: SessionView,
  paneCounts: (sessionId: string) => MemberCounts | undefined,
): { counts: MemberCounts | undefined; source: 'server' | 'pane' | 'unknown' } {
  if (s.members) return { counts: s.members, source: 'server' };
  const fromPane = paneCounts(s.session_id);
  return fromPane ? { counts: fromPane, source: 'pane' } : { counts: undefined, source: 'unknown' };
}

interface Item {
  li: HTMLLIElement;
  control: HTMLButtonElement;
  watch: HTMLButtonElement;
  kill: HTMLButtonElement;
  state: HTMLElement;
  meta: HTMLElement;
  members: HTMLElement;
  view: SessionView;
}

export class SessionList {
  private readonly items = new Map<string, Item>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private inFlight: AbortController | undefined;
  private sessions: SessionView[] = [];

  constructor(
    private readonly api: Api,
    private readonly list: HTMLElement,
    private readonly status: HTMLElement,
    private readonly opts: SessionListOptions,
  ) {}

  /** The instance of the listed sessions (what "open by id" defaults to). */
  get instanceId(): string | undefined {
    return this.sessions[0]?.instance_id;
  }

  start(): void {
    this.dispose();
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
  }

  dispose(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.inFlight?.abort();
    this.inFlight = undefined;
  }

  async refresh(): Promise<void> {
    if (this.inFlight) return; // a slow server must not pile up requests
    const ctl = new AbortController();
    this.inFlight = ctl;
    try {
      this.render(await this.api.listSessions(ctl.signal));
    } catch (err) {
      if (ctl.signal.aborted) return;
      this.showError(err);
    } finally {
      if (this.inFlight === ctl) this.inFlight = undefined;
    }
  }

  private showError(err: unknown): void {
    if (err instanceof ApiError && err.status === 401) {
      this.status.textContent = this.opts.hasToken()
        ? 'The token was refused: it is unknown, expired or revoked. Enter a valid token.'
        : 'Sign in with an access token to see the sessions.';
      this.dispose();
      this.opts.onUnauthorized();
    } else if (err instanceof ApiError && err.status === 403) {
      this.status.textContent =
        'This token cannot list sessions (that needs pty:admin). Open a session by its id below.';
    } else {
      this.status.textContent = `Could not load sessions: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  /** Re-applies what the token may do to the listed items. */
  rerender(): void {
    for (const item of this.items.values()) this.updateItem(item, item.view);
  }

  private render(sessions: SessionView[]): void {
    this.sessions = sessions;
    const running = sessions.filter((s) => s.state === 'running').length;
    this.status.textContent =
      sessions.length === 0
        ? 'No sessions yet.'
        : `${sessions.length} session${sessions.length === 1 ? '' : 's'}, ${running} running.`;
    const seen = new Set<string>();
    sessions.forEach((s, index) => {
      seen.add(s.session_id);
      let item = this.items.get(s.session_id);
      if (!item) {
        item = this.createItem(s);
        this.items.set(s.session_id, item);
      }
      this.updateItem(item, s);
      if (this.list.children[index] !== item.li) this.list.insertBefore(item.li, this.list.children[index] ?? null);
    });
    for (const [id, item] of this.items) {
      if (seen.has(id)) continue;
      item.li.remove();
      this.items.delete(id);
    }
  }

  private createItem(s: SessionView): Item {
    const name = shortId(s.session_id);
    const control = h(
      'button',
      { type: 'button', class: 'btn btn-primary', 'aria-label': `Control session ${name}` },
      'Control',
    );
    const watch = h(
      'button',
      { type: 'button', class: 'btn', 'aria-label': `Watch session ${name} read-only` },
      'Watch',
    );
    const recording = h(
      'button',
      { type: 'button', class: 'btn', 'aria-label': `Recording of session ${name}` },
      'Recording',
    );
    const kill = h('button', { type: 'button', class: 'btn btn-danger', 'aria-label': `Kill session ${name}` }, 'Kill');
    const state = h('span', { class: 'badge state-badge' });
    const meta = h('span', { class: 'session-meta' });
    const members = h('span', { class: 'session-members' });
    const li = h(
      'li',
      { class: 'session-item', 'data-session-id': s.session_id },
      h('div', { class: 'session-line' }, h('span', { class: 'mono session-id', title: s.session_id }, name), state),
      h('div', { class: 'mono session-argv', title: s.argv.join(' ') }, s.argv.join(' ') || '(login shell)'),
      h('div', { class: 'session-line' }, meta, members),
      h('div', { class: 'session-actions' }, control, watch, recording, kill),
    );
    const item: Item = { li, control, watch, kill, state, meta, members, view: s };
    recording.addEventListener('click', () => this.opts.onRecording(item.view));
    // Two presses: a kill cannot be undone.
    kill.addEventListener('click', () => {
      if (kill.dataset['armed'] !== 'true') {
        kill.dataset['armed'] = 'true';
        kill.textContent = 'Confirm kill';
        setTimeout(() => {
          delete kill.dataset['armed'];
          kill.textContent = 'Kill';
        }, 4000);
        return;
      }
      kill.disabled = true;
      void this.opts.onKill(item.view).finally(() => (kill.disabled = false));
    });
    control.addEventListener('click', () => this.opts.onOpen(item.view, 'controller'));
    watch.addEventListener('click', () => this.opts.onOpen(item.view, 'observer'));
    return item;
  }

  private updateItem(item: Item, s: SessionView): void {
    item.view = s;
    const exited = s.state !== 'running';
    item.control.hidden = exited || !this.opts.mayControl();
    item.watch.hidden = exited;
    item.kill.hidden = exited || !this.opts.mayAdmin();
    item.state.textContent = exited && s.exit_code !== null ? `${s.state} (${s.exit_code})` : s.state;
    item.state.dataset['state'] = s.state;
    item.li.dataset['state'] = s.state;
    item.meta.textContent = `${s.cols}×${s.rows} · seq ${s.replay?.last_sequence ?? '?'}`;
    const { counts, source } = memberCounts(s, this.opts.paneCounts);
    item.members.textContent = counts
      ? `${counts.controllers} ctl · ${counts.observers} obs${source === 'pane' ? ' (live)' : ''}`
      : 'members: n/a';
    item.members.dataset['source'] = source;
  }
}
