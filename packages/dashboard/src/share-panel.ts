/**
 * "Copy link" of a pane: the link to this pane (the receiver signs in with their own token), and,
 * for a token that may mint, an observe-only link carrying a short-lived token bound to this one
 * session. The minted token is shown once, in this panel only, and never stored.
 */
import type { Api } from './api';
import { h } from './dom';
import { paneLink, type PaneRef } from './url-state';

export const SHARE_TTL_S = 3600;

export interface ShareContext {
  api: Api;
  ref: PaneRef;
  /** The token may mint (pty:admin); unknown (undefined) offers it and lets the server decide. */
  mayMint: boolean | undefined;
}

function linkField(label: string, value: string, cls: string): HTMLElement {
  const input = h('input', { type: 'text', class: `mono ${cls}`, readonly: true, 'aria-label': label, value });
  const copy = h('button', { type: 'button', class: 'btn' }, 'Copy');
  copy.addEventListener('click', () => {
    input.select();
    void navigator.clipboard?.writeText(value).then(
      () => (copy.textContent = 'Copied'),
      () => (copy.textContent = 'Press Ctrl+C'),
    );
  });
  return h('div', { class: 'share-row' }, h('span', { class: 'share-label' }, label), input, copy);
}

/** Builds the panel; `onClose` removes it. */
export function sharePanel(ctx: ShareContext, onClose: () => void): HTMLElement {
  const { origin, pathname } = window.location;
  const note = h('p', { class: 'hint share-note', role: 'status' });
  const close = h('button', { type: 'button', class: 'btn', 'aria-label': 'Close the link panel' }, '✕');
  close.addEventListener('click', onClose);
  const panel = h(
    'div',
    { class: 'share-panel', role: 'group', 'aria-label': 'Links to this pane' },
    linkField('Link (needs your token)', paneLink(origin, pathname, ctx.ref), 'share-link'),
    note,
    close,
  );
  if (ctx.mayMint === false) return panel;
  const mint = h('button', { type: 'button', class: 'btn share-mint' }, 'Create an observe-only link (1 h)');
  mint.addEventListener('click', () => {
    mint.disabled = true;
    note.textContent = 'Minting an observe-only token…';
    ctx.api.mintObserveToken(ctx.ref.sessionId, SHARE_TTL_S).then(
      (t) => {
        const ref: PaneRef = { ...ctx.ref, role: 'observer' };
        mint.replaceWith(
          linkField('Observe-only link', paneLink(origin, pathname, ref, t.token), 'share-observe-link'),
        );
        note.textContent = `Shown once: anyone with this link can watch this session, read-only, until ${t.expiresAt ?? 'it is revoked'}.`;
      },
      (err: unknown) => {
        mint.disabled = false;
        note.textContent = `Could not mint a token: ${err instanceof Error ? err.message : String(err)}`;
      },
    );
  });
  panel.insertBefore(mint, note);
  return panel;
}
