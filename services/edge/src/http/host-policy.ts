import { isIP } from 'node:net';

/**
 * Which names a request's `Host` header may carry (DNS-rebinding guard). A page on
 * `http://rebind.example` whose name the attacker re-points at 127.0.0.1 is same-origin with
 * itself, so the Origin check passes; only the Host header shows that the browser thinks it is
 * talking to another site. An IP literal cannot be rebound (no DNS is involved) and `localhost`
 * never leaves the machine, so both always pass; any other name must be listed
 * (PTYWS_ALLOWED_HOSTS). A request without `Host` comes from no browser and passes.
 *
 * Enforced when names are configured, and always with PTYWS_AUTH=disabled, where a browser's
 * request needs no credential at all. With bearer tokens a rebound page holds no token, and
 * deployments behind ingresses answer to names the edge cannot know, so the default stays open.
 */
export class HostPolicy {
  private readonly names: ReadonlySet<string>;
  private readonly any: boolean;
  readonly enforced: boolean;

  constructor(allowedHosts: readonly string[], authEnabled: boolean) {
    this.any = allowedHosts.includes('*');
    this.names = new Set(allowedHosts.map(canonicalName));
    this.enforced = !this.any && (allowedHosts.length > 0 || !authEnabled);
  }

  /** Undefined when allowed, else why the request is refused. */
  check(host: string): string | undefined {
    if (!this.enforced || host === '') return undefined;
    const name = nameOfHost(host);
    if (name !== undefined && (isIP(name) !== 0 || isLocalhost(name) || this.names.has(name))) return undefined;
    return `Host '${host.slice(0, 256)}' is not served here (IP literals, localhost and PTYWS_ALLOWED_HOSTS only)`;
  }
}

/** `name[:port]` or `[v6][:port]` → the lower-case name or address; junk → undefined. */
function nameOfHost(host: string): string | undefined {
  const h = host.trim().toLowerCase();
  const v6 = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(h);
  if (v6) return v6[1];
  const m = /^([^:[\]\s]+)(?::\d{1,5})?$/.exec(h);
  return m?.[1] === undefined ? undefined : canonicalName(m[1]);
}

/** Lower case, without the root's trailing dot (`localhost.` is `localhost`). */
function canonicalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** RFC 6761: `localhost` and every name under it resolve to loopback only. */
function isLocalhost(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}
