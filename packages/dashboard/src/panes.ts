/** The open panes: several at once, laid out by CSS grid; one pane per session. */
import type { PtyRole } from '@pty-ws/protocol';
import type { Api, MemberCounts } from './api';
import { shortId } from './dom';
import { Pane } from './pane';
import { RecordingView } from './recording-view';
import type { Toasts } from './toast';
import type { PaneRef } from './url-state';

export interface OpenRequest {
  sessionId: string;
  instanceId: string;
  command: string;
  role: PtyRole | undefined;
}

export interface PaneManagerDeps {
  origin: string;
  token: () => string | undefined;
  label: string;
  toasts: Toasts;
  api: Api;
  may: () => { control: boolean; admin: boolean } | undefined;
  /** A pane opened, closed or got its role: the address bar follows. */
  onChange: () => void;
}

export class PaneManager {
  /** Live list, in screen order (the test probe reads it). */
  readonly panes: Pane[] = [];
  readonly recordings: RecordingView[] = [];

  constructor(
    private readonly container: HTMLElement,
    private readonly empty: HTMLElement,
    private readonly deps: PaneManagerDeps,
  ) {}

  /** Opens a pane, or focuses the one already showing that session. */
  open(req: OpenRequest): Pane {
    const existing = this.panes.find((p) => p.sessionId === req.sessionId);
    if (existing) {
      existing.focus();
      return existing;
    }
    const pane = new Pane({
      ...req,
      origin: this.deps.origin,
      token: this.deps.token,
      label: this.deps.label,
      api: this.deps.api,
      may: this.deps.may,
      onRole: () => this.deps.onChange(),
      onEnded: (p) => {
        p.close();
        this.openRecording(p.sessionId);
      },
      onRoleChange: (p, role, _previous, reason) =>
        this.deps.toasts.show(
          `You are now ${role === 'controller' ? 'a controller' : 'an observer'} of ${shortId(p.sessionId)}` +
            (reason ? ` (${reason})` : '') +
            '.',
          role === 'controller' ? 'info' : 'warn',
        ),
      onClose: (p) => this.remove(p),
    });
    this.panes.push(pane);
    this.container.append(pane.view.root);
    this.empty.hidden = true;
    // On a phone the list sits below the panes: bring the new terminal into view.
    pane.view.root.scrollIntoView({ block: 'start' });
    void pane.start().then(() => pane.focus());
    this.deps.onChange();
    return pane;
  }

  /** Opens the panes a link or the address bar lists that are not open yet. */
  openAll(refs: readonly PaneRef[], defaultInstance: string): void {
    for (const r of refs) {
      this.open({ sessionId: r.sessionId, instanceId: r.instanceId ?? defaultInstance, command: '', role: r.role });
    }
  }

  countsFor(sessionId: string): MemberCounts | undefined {
    return this.panes.find((p) => p.sessionId === sessionId)?.memberCounts;
  }

  closeAll(): void {
    for (const p of [...this.panes]) p.close();
  }

  private remove(pane: Pane): void {
    const i = this.panes.indexOf(pane);
    if (i >= 0) this.panes.splice(i, 1);
    this.empty.hidden = this.panes.length + this.recordings.length > 0;
    this.deps.onChange();
  }

  /** Opens the recording of a session (or brings the one already open into view). */
  openRecording(sessionId: string): RecordingView {
    const existing = this.recordings.find((r) => r.sessionId === sessionId);
    if (existing) {
      existing.root.scrollIntoView({ block: 'nearest' });
      return existing;
    }
    const view = new RecordingView(sessionId, this.deps.api, (v) => {
      this.recordings.splice(this.recordings.indexOf(v), 1);
      this.empty.hidden = this.panes.length + this.recordings.length > 0;
    });
    this.recordings.push(view);
    this.container.append(view.root);
    this.empty.hidden = true;
    view.root.scrollIntoView({ block: 'nearest' });
    void view.start();
    return view;
  }

  /** Applies what the token may do to every open pane. */
  refreshAbilities(): void {
    for (const p of this.panes) p.refreshAbilities();
  }
}
