import { isIP } from 'node:net';

/**
 * Whether a listen address keeps the network out: `localhost`, 127.0.0.0/8 or ::1 (also
 * IPv4-mapped). `0.0.0.0`, `::` and every other address or name listen beyond this host.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(h)?.[1];
  if (v4 !== undefined && isIP(v4) === 4) return v4.startsWith('127.');
  // The URL parser canonicalizes IPv6 (0:0:0:0:0:0:0:1 → ::1).
  return isIP(h) === 6 && new URL(`http://[${h}]/`).hostname === '[::1]';
}
