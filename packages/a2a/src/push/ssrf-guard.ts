import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';

/**
 * Where a caller-chosen webhook may not point (server-side request forgery): loopback, the
 * unspecified address, link-local (cloud metadata at 169.254.169.254), private and shared
 * ranges, multicast and reserved space, in IPv4 and IPv6 (IPv4-mapped and NAT64 forms match the
 * IPv4 rules). Checked on the addresses a host name resolves to, on every connection attempt, so
 * a name that resolves differently later (DNS rebinding) is caught too.
 */
const DENIED_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const DENIED_V6: ReadonlyArray<readonly [string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

export class WebhookAddressPolicy {
  private readonly denied = new BlockList();
  private readonly allowedNets = new BlockList();
  private readonly allowedNames: ReadonlySet<string>;

  /** `allowedHosts`: host names (exact, case-insensitive) and CIDRs opted in (PTYWS_PUSH_ALLOWED_HOSTS). */
  constructor(allowedHosts: readonly string[] = []) {
    for (const [net, bits] of DENIED_V4) this.denied.addSubnet(net, bits, 'ipv4');
    for (const [net, bits] of DENIED_V6) this.denied.addSubnet(net, bits, 'ipv6');
    const names = new Set<string>();
    for (const entry of allowedHosts) {
      const [addr = '', bits] = entry.split('/');
      const family = isIP(addr);
      if (family === 0) names.add(entry.toLowerCase());
      else if (bits === undefined) this.allowedNets.addAddress(addr, family === 6 ? 'ipv6' : 'ipv4');
      else this.allowedNets.addSubnet(addr, Number(bits), family === 6 ? 'ipv6' : 'ipv4');
    }
    this.allowedNames = names;
  }

  /** The host name itself is opted in: any address it resolves to is fine. */
  nameAllowed(hostname: string): boolean {
    return this.allowedNames.has(hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1'));
  }

  /** Whether a connection to this IP address may be made. */
  addressAllowed(address: string): boolean {
    const family = isIP(address);
    if (family === 0) return false;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    const embedded = embeddedV4(address);
    if (this.allowedNets.check(address, type)) return true;
    if (embedded !== undefined && this.allowedNets.check(embedded, 'ipv4')) return true;
    if (this.denied.check(address, type)) return false;
    return embedded === undefined || !this.denied.check(embedded, 'ipv4');
  }

  /**
   * A `lookup` for node:http(s) that resolves as usual and fails the connection when any address
   * is refused (`all` and single-address callers alike).
   */
  readonly lookup = (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(
      hostname,
      { all: true, ...(typeof options.family === 'number' ? { family: options.family } : {}) },
      (err, addresses) => {
        if (err) return callback(err, []);
        if (!this.nameAllowed(hostname)) {
          const bad = addresses.find((a) => !this.addressAllowed(a.address));
          if (bad) return callback(refused(hostname, bad.address), []);
        }
        if (options.all) return callback(null, addresses);
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
        callback(null, first.address, first.family);
      },
    );
  };
}

/** The IPv4 address inside ::ffff:a.b.c.d / ::ffff:xxxx:xxxx / 64:ff9b::xxxx:xxxx, if any. */
function embeddedV4(address: string): string | undefined {
  const t = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(t)?.[1];
  if (dotted) return dotted;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(t);
  if (!hex?.[1] || !hex[2]) return undefined;
  const hi = parseInt(hex[1], 16);
  const lo = parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export class WebhookAddressRefused extends Error {
  readonly code = 'EPUSHADDRESS';
}

function refused(hostname: string, address: string): WebhookAddressRefused {
  return new WebhookAddressRefused(
    `webhook host ${hostname} resolves to ${address}, a loopback/private/link-local address (PTYWS_PUSH_ALLOWED_HOSTS opts in)`,
  );
}
