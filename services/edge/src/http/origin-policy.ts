/**
 * Which web origins may reach the edge from a browser. A browser attaches ambient credentials by
 * itself — a client certificate (mTLS), or nothing at all with PTYWS_AUTH=disabled — so without
 * this check any page the user opens could open a WebSocket to a terminal or POST to the REST
 * API (cross-site WebSocket hijacking, CSRF). Browsers always send `Origin` on cross-origin
 * requests and on every WebSocket upgrade; a request without one comes from a non-browser client
 * (curl, the SDK, ptyctl), which has no ambient credentials to abuse, and is allowed.
 *
 * PTYWS_ALLOWED_ORIGINS lists the origins allowed besides the same origin (`https://ops.example`,
 * exact match, scheme and port included), or `*` for any. Unset: same-origin only, i.e. the
 * Origin's host[:port] equals the request's Host header.
 */
export class OriginPolicy {
  private readonly allowed: ReadonlySet<string>;
  private readonly any: boolean;

  constructor(allowedOrigins: readonly string[] = []) {
    this.any = allowedOrigins.includes('*');
    this.allowed = new Set(allowedOrigins.map(normalizeOrigin));
  }

  /** Undefined when allowed, else why the request is refused. */
  check(origin: string, host: string): string | undefined {
    if (origin === '' || this.any) return undefined;
    const normalized = normalizeOrigin(origin);
    if (this.allowed.has(normalized)) return undefined;
    const originHost = hostOfOrigin(normalized);
    if (originHost !== undefined && host !== '' && originHost === host.trim().toLowerCase()) return undefined;
    return `Origin '${origin}' is not allowed (same origin only; list other origins in PTYWS_ALLOWED_ORIGINS)`;
  }
}

function normalizeOrigin(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, '');
}

/** `https://host:port` → `host:port`; `null` (sandboxed frames, file:) and junk → undefined. */
function hostOfOrigin(origin: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]+)$/.exec(origin);
  return m?.[1];
}
