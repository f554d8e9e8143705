/** The DOM of one pane: header with status, role and actions; membership; the terminal host. */
import type { MembershipEvent } from '@pty-ws/client';
import type { ClientRef, PtyRole } from '@pty-ws/protocol';
import { h, replaceChildren, shortId } from './dom';

export type PaneStatus = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'error';

export interface PaneActions {
  requestControl(): void;
  releaseControl(): void;
  resync(): void;
  share(): void;
  /** Resizes the session to this pane's box. */
  fitToMe(): void;
  close(): void;
}

let counter = 0;

export class PaneView {
  readonly root: HTMLElement;
  /** xterm opens here; its size is set by the layout only, never by the terminal (no resize loop). */
  readonly termHost: HTMLElement;
  private readonly status: HTMLElement;
  private readonly roleBadge: HTMLElement;
  private readonly readonlyNote: HTMLElement;
  private readonly requestBtn: HTMLButtonElement;
  private readonly releaseBtn: HTMLButtonElement;
  private readonly resyncBtn: HTMLButtonElement;
  private readonly membersSummary: HTMLElement;
  private readonly membersList: HTMLElement;
  /** A problem that does not end the stream (a refused role change): beside the status, not over it. */
  private readonly notice: HTMLElement;
  private readonly sizeHint: HTMLElement;
  private readonly sizeHintText: HTMLElement;
  private mayControl = true;
  private ended = false;
  private role: PtyRole | undefined;

  constructor(sessionId: string, command: string, actions: PaneActions) {
    const id = `pane-${++counter}`;
    const button = (cls: string, text: string, label: string, onClick: () => void): HTMLButtonElement => {
      const b = h('button', { type: 'button', class: `btn ${cls}`, 'aria-label': label, title: label }, text);
      b.addEventListener('click', onClick);
      return b;
    };
    const name = shortId(sessionId);
    this.status = h('span', { class: 'pane-status', role: 'status', 'data-status': 'connecting' }, 'Connecting…');
    this.roleBadge = h('span', { class: 'badge role-badge', 'data-role': 'none' }, '—');
    this.requestBtn = button('pane-request-btn', 'Request control', `Request control of ${name}`, () =>
      actions.requestControl(),
    );
    this.releaseBtn = button('pane-release-btn', 'Release control', `Release control of ${name}`, () =>
      actions.releaseControl(),
    );
    this.resyncBtn = button('pane-resync-btn', '⟳ Resync', `Resync the terminal of ${name}`, () => actions.resync());
    const linkBtn = button('pane-link-btn', 'Copy link', `Copy a link to ${name}`, () => actions.share());
    const closeBtn = button('pane-close-btn', '✕', `Close the pane of ${name}`, () => actions.close());
    // In the header, not a line of its own: an observer's terminal area keeps the controller's height.
    this.readonlyNote = h(
      'span',
      { class: 'badge readonly-note', title: 'You are observing: keystrokes are not sent.', hidden: true },
      'Read-only',
    );
    this.notice = h('span', { class: 'pane-notice', role: 'alert', hidden: true });
    this.sizeHintText = h('span', {});
    this.sizeHint = h(
      'div',
      { class: 'size-hint', role: 'status', hidden: true },
      this.sizeHintText,
      button('size-fit-btn', 'Fit to me', `Resize ${name} to this pane`, () => actions.fitToMe()),
    );
    this.membersSummary = h('summary', {}, 'Members');
    this.membersList = h('ul', { class: 'members-list' });
    this.termHost = h('div', { class: 'term-host', role: 'group', 'aria-label': `Terminal of session ${name}` });

    this.root = h(
      'section',
      { class: 'pane', id, 'aria-labelledby': `${id}-title`, 'data-session-id': sessionId },
      h(
        'header',
        { class: 'pane-header' },
        h(
          'h2',
          { class: 'pane-title', id: `${id}-title` },
          h('span', { class: 'mono', title: sessionId }, name),
          ' ',
          h('span', { class: 'pane-command mono', title: command }, command),
        ),
        h('div', { class: 'pane-meta' }, this.status, this.roleBadge, this.readonlyNote, this.notice),
        h('div', { class: 'pane-actions' }, this.requestBtn, this.releaseBtn, this.resyncBtn, linkBtn, closeBtn),
      ),
      h('details', { class: 'members' }, this.membersSummary, this.membersList),
      this.sizeHint,
      this.termHost,
    );
    this.setRole(undefined);
  }

  setStatus(status: PaneStatus, text: string): void {
    this.status.dataset['status'] = status;
    this.status.textContent = text;
    this.status.title = text; // the header truncates long messages
    this.root.dataset['status'] = status;
  }

  /** Shows (text) or clears (undefined) a notice that leaves the stream's status alone. */
  setNotice(text: string | undefined): void {
    this.notice.hidden = text === undefined;
    this.notice.textContent = text ?? '';
    this.notice.title = text ?? '';
  }

  /** Says that the session's size is not this pane's (another controller set it); undefined clears. */
  setSizeHint(text: string | undefined): void {
    this.sizeHint.hidden = text === undefined;
    this.sizeHintText.textContent = text ?? '';
  }

  /** A token without pty:control is never offered "Request control". */
  setMayControl(may: boolean): void {
    this.mayControl = may && !this.ended;
    this.setRole(this.role);
  }

  /** Observer panes are visibly read-only; only the button that makes sense is offered. */
  setRole(role: PtyRole | undefined): void {
    this.role = role;
    this.root.dataset['role'] = role ?? 'none';
    this.root.classList.toggle('pane--readonly', role !== 'controller');
    this.roleBadge.dataset['role'] = role ?? 'none';
    this.roleBadge.textContent = role === 'controller' ? 'Controller' : role === 'observer' ? 'Observer' : '—';
    this.readonlyNote.hidden = role !== 'observer';
    this.requestBtn.hidden = role !== 'observer' || !this.mayControl;
    this.releaseBtn.hidden = role !== 'controller';
  }

  setBusy(busy: boolean): void {
    this.requestBtn.disabled = busy;
    this.releaseBtn.disabled = busy;
  }

  /** The session's process is gone: nothing to control, nothing to resync. */
  setEnded(): void {
    this.ended = true;
    this.mayControl = false;
    this.requestBtn.hidden = true;
    this.releaseBtn.hidden = true;
    this.resyncBtn.disabled = true;
    this.root.classList.add('pane--readonly');
  }

  /** Replaces the list from the snapshot (MembershipChanged carries the full membership). */
  setMembers(m: MembershipEvent | undefined, selfId: string | undefined): void {
    const controllers = m?.controllers ?? [];
    const observers = m?.observers ?? [];
    this.membersSummary.textContent = `Members: ${plural(controllers.length, 'controller')}, ${plural(observers.length, 'observer')}`;
    const item = (ref: ClientRef, role: string): HTMLElement =>
      h(
        'li',
        { 'data-role': role },
        h('span', { class: 'badge' }, role),
        ' ',
        ref.label ?? shortId(ref.client_id),
        ref.client_id === selfId ? h('strong', {}, ' (you)') : undefined,
      );
    replaceChildren(this.membersList, [
      ...controllers.map((r) => item(r, 'controller')),
      ...observers.map((r) => item(r, 'observer')),
    ]);
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
