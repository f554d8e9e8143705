/** The open panes: several at once, laid out by CSS grid; one pane per session. */
import type { PtyRole } from '@pty-ws/protocol';
import type { MemberCounts } from './api';
import { shortId } from './dom';
import { Pane } from './pane';
import type { Toasts } from './toast';

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
}

export class PaneManager {
  /** Live list, in screen order (the test probe reads it). */
  readonly panes: Pane[] = [];

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
    void pane.start().then(() => pane.focus());
    return pane;
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
    this.empty.hidden = this.panes.length > 0;
  }
}
