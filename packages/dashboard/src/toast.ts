/**
 * Toasts: short-lived notices in a polite live region. The dashboard raises one only when the
 * operator's own role changes (rendering rules: join/leave churn is logged at debug level, not shown).
 */
import { h } from './dom';

export type ToastKind = 'info' | 'warn';

export class Toasts {
  /** Every message shown, oldest first; read by the test probe. */
  readonly history: string[] = [];

  constructor(
    private readonly container: HTMLElement,
    private readonly lifetimeMs = 6000,
  ) {}

  show(message: string, kind: ToastKind = 'info'): void {
    this.history.push(message);
    const close = h('button', { type: 'button', class: 'toast-close', 'aria-label': 'Dismiss notification' }, '×');
    const el = h('div', { class: `toast toast--${kind}` }, h('span', {}, message), close);
    const remove = (): void => el.remove();
    close.addEventListener('click', remove);
    this.container.append(el);
    setTimeout(remove, this.lifetimeMs);
  }
}
