/**
 * The operator's bearer token. It is entered once (form) or handed over in the URL fragment
 * (`#token=…`): fragments never reach servers, proxies or access logs, unlike the query string,
 * which the server refuses for tokens anyway. It lives in sessionStorage — per tab, gone when the
 * tab closes — and is wiped from the address bar right after it is read.
 */
import { parsePaneRefs, type PaneRef } from './url-state';

const KEY = 'ptyws.token';

export interface LocationParams {
  token: string | undefined;
  /** Panes to open, from `#session=…&instance=…&role=observer` (url-state.ts). */
  panes: PaneRef[];
  /** A `?token=` was present: ignored (and removed), the operator should be told why. */
  queryTokenIgnored: boolean;
}

/** Reads token and open request from the fragment, then scrubs token material from the URL. */
export function readLocation(loc: Location, history: History): LocationParams {
  const frag = new URLSearchParams(loc.hash.replace(/^#/, ''));
  const query = new URLSearchParams(loc.search);
  const token = frag.get('token')?.trim() || undefined;
  const panes = parsePaneRefs(loc.hash);
  const queryTokenIgnored = query.has('token');
  if (token !== undefined || queryTokenIgnored) {
    frag.delete('token');
    query.delete('token');
    const q = query.toString();
    const f = frag.toString();
    history.replaceState(history.state, '', `${loc.pathname}${q ? `?${q}` : ''}${f ? `#${f}` : ''}`);
  }
  return { token, panes, queryTokenIgnored };
}

export function loadToken(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined; // storage disabled: the operator re-enters the token per page load
  }
}

export function saveToken(token: string): void {
  try {
    sessionStorage.setItem(KEY, token);
  } catch {
    // Storage disabled: the token still works for this page's lifetime.
  }
}

export function clearToken(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
