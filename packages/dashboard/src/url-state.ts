/**
 * The open panes live in the address fragment, so a reload, a bookmark or a pasted link brings
 * them back: `#session=<id>&instance=<id>&role=observer&session=<id2>…`. Each `session` starts a
 * pane; the `instance` and `role` after it belong to it. The fragment never reaches a server.
 */
import type { PtyRole } from '@pty-ws/protocol';

export interface PaneRef {
  sessionId: string;
  instanceId: string | undefined;
  role: PtyRole | undefined;
}

function roleOf(v: string): PtyRole | undefined {
  return v === 'observer' || v === 'controller' ? v : undefined;
}

export function parsePaneRefs(hash: string): PaneRef[] {
  const refs: PaneRef[] = [];
  for (const [key, raw] of new URLSearchParams(hash.replace(/^#/, ''))) {
    const value = raw.trim();
    const last = refs[refs.length - 1];
    if (key === 'session' && value) refs.push({ sessionId: value, instanceId: undefined, role: undefined });
    else if (key === 'instance' && last && value) last.instanceId = value;
    else if (key === 'role' && last) last.role = roleOf(value);
  }
  return refs;
}

/** The fragment for these panes, keeping any other parameters (never a token: it is scrubbed). */
export function paneFragment(refs: readonly PaneRef[], extra: Record<string, string> = {}): string {
  const p = new URLSearchParams(extra);
  for (const r of refs) {
    p.append('session', r.sessionId);
    if (r.instanceId) p.append('instance', r.instanceId);
    if (r.role) p.append('role', r.role);
  }
  const s = p.toString();
  return s ? `#${s}` : '';
}

/** A link to one pane on this dashboard (with `token` only for a share token minted for it). */
export function paneLink(origin: string, pathname: string, ref: PaneRef, token?: string): string {
  return `${origin}${pathname}${paneFragment([ref], token ? { token } : {})}`;
}

/** Writes the panes into the address bar without adding history entries or firing hashchange. */
export function writePaneRefs(refs: readonly PaneRef[]): void {
  const { pathname, search } = window.location;
  const url = `${pathname}${search}${paneFragment(refs)}`;
  if (url !== `${pathname}${search}${window.location.hash}`) window.history.replaceState(window.history.state, '', url);
}
