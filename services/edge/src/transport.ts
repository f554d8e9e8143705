import { BlockList, isIP } from 'node:net';
import { readFileSync } from 'node:fs';
import { isLoopbackHost, type Config } from '@pty-ws/config';
import { OriginPolicy } from './http/origin-policy';
import type { Logger } from './logger';
import { uWS, type TemplatedApp } from './uws';

/**
 * Whether an attach upgrade arrived over a secure transport (binding §11: production MUST use
 * wss://, plain ws:// only by operator override).
 */
export class TransportPolicy {
  private readonly proxies = new BlockList();

  constructor(
    readonly tls: boolean,
    /** Plain upgrades accepted anyway (explicit PTYWS_ALLOW_INSECURE=1, or unset on loopback). */
    readonly allowInsecure: boolean,
    trustedProxies: readonly string[],
    /** mTLS: the front that relays verified clients to the app; every request must come through it. */
    private readonly relay?: PeerDirectory,
    /** Which browser origins may send requests (ambient credentials: certificates, auth disabled). */
    private readonly origins: OriginPolicy = new OriginPolicy(),
  ) {
    for (const cidr of trustedProxies) {
      const [addr = '', bits] = cidr.split('/');
      const family = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.proxies.addAddress(addr, family);
      else this.proxies.addSubnet(addr, Number(bits), family);
    }
  }

  static fromConfig(config: Config, relay?: PeerDirectory): TransportPolicy {
    const tls = config.tlsCert !== undefined && config.tlsKey !== undefined;
    return new TransportPolicy(
      tls,
      allowsInsecure(config, config.host),
      config.trustedProxies,
      relay,
      new OriginPolicy(config.allowedOrigins),
    );
  }

  /**
   * The transport check of every attach upgrade and REST call: who the peer really is (behind the
   * mTLS front: the TLS client and its certificate identity), or why the request is refused.
   */
  admit(
    remoteAddress: string,
    forwardedProto: string,
    origin = '',
    host = '',
    proxiedAddress = '',
    forwardedFor = '',
  ): TransportVerdict {
    const foreign = this.origins.check(origin, host);
    if (foreign !== undefined) return { ok: false, message: foreign };
    if (this.relay) {
      // Behind the front the app listens on a private unix socket; the front names each relayed
      // connection in a PROXY v2 header. The TCP source address plays no part (none exists).
      const peer = proxiedAddress === '' ? undefined : this.relay.peerOf(normalizeAddress(proxiedAddress));
      if (peer) return { ok: true, remoteAddress: peer.remoteAddress, certificate: peer.certificate };
      return {
        ok: false,
        message: 'this server requires TLS with a client certificate (PTYWS_TLS_CA): connect to its https/wss port',
      };
    }
    if (this.permits(remoteAddress, forwardedProto)) {
      return { ok: true, remoteAddress: this.clientAddress(remoteAddress, forwardedFor) };
    }
    return {
      ok: false,
      message:
        'plain http:// and ws:// are refused by this server (PTYWS_ALLOW_INSECURE is not 1 and it listens beyond loopback): use https:// and wss://, or a trusted proxy that terminates TLS',
    };
  }

  /** True when the request may proceed; `forwardedProto` counts only from a trusted proxy. */
  permits(remoteAddress: string, forwardedProto: string): boolean {
    if (this.tls || this.allowInsecure) return true;
    return forwardedProto.trim().toLowerCase() === 'https' && this.isTrustedProxy(remoteAddress);
  }

  /**
   * Who the client is when the peer is a trusted proxy: the rightmost `X-Forwarded-For` hop that
   * is not itself a trusted proxy. Hops further left were written by whoever sent the request and
   * prove nothing; the rightmost untrusted one was appended by a proxy of ours. Without a trusted
   * peer the header is ignored (anyone can send it), and the peer's own address is the client.
   */
  clientAddress(peer: string, forwardedFor: string): string {
    if (forwardedFor === '' || !this.isTrustedProxy(peer)) return peer;
    const hops = forwardedFor.split(',').map((hop) => normalizeAddress(hop));
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] ?? '';
      if (isIP(hop) === 0) break; // junk (or `unknown`): the last good hop stands
      client = hop;
      if (!this.isTrustedProxy(hop)) break;
    }
    return client;
  }

  isTrustedProxy(remoteAddress: string): boolean {
    const addr = normalizeAddress(remoteAddress);
    const family = isIP(addr);
    if (family === 0) return false;
    return this.proxies.check(addr, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/**
 * Plain (unencrypted) transport on a listener bound to `host`: PTYWS_ALLOW_INSECURE decides when
 * set; unset, only a loopback listener accepts it (binding §11: production MUST use TLS; a local
 * `npm start` keeps working without certificates).
 */
export function allowsInsecure(config: Pick<Config, 'allowInsecure'>, host: string): boolean {
  return config.allowInsecure ?? isLoopbackHost(host);
}

/** Where the mTLS front registers the clients it relays, by the address it names them with. */
export interface PeerDirectory {
  peerOf(relayAddress: string): { remoteAddress: string; certificate: string } | undefined;
}

export type TransportVerdict =
  { ok: true; remoteAddress: string; certificate?: string } | { ok: false; message: string };

/** uWS prints IPv4 peers of a dual-stack socket as IPv4-mapped IPv6; CIDRs are written as IPv4. */
export function normalizeAddress(text: string): string {
  const t = text.trim().toLowerCase();
  const mapped = /^(?:0{1,4}:){0,5}(?::)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(t) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (mapped?.[1]) return mapped[1];
  const hex = /^(?:0{4}:){5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(t);
  if (hex?.[1] && hex[2]) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return t;
}

/** The uWS app: SSLApp when a certificate is configured (https and wss on the same port), else App. */
export function createApp(config: Config, logger: Logger): TemplatedApp {
  // With PTYWS_TLS_CA the MtlsFront terminates TLS; the app behind it listens on a private unix socket only.
  if (config.tlsCa !== undefined) return uWS.App();
  if (config.tlsCert !== undefined && config.tlsKey !== undefined) {
    // uWS fails silently (an app that never listens) on unreadable files: check them for a clear error.
    for (const [name, file] of [
      ['PTYWS_TLS_CERT', config.tlsCert],
      ['PTYWS_TLS_KEY', config.tlsKey],
    ] as const) {
      try {
        readFileSync(file);
      } catch (err) {
        throw new Error(`${name}=${file} cannot be read: ${(err as Error).message}`);
      }
    }
    return uWS.SSLApp({ cert_file_name: config.tlsCert, key_file_name: config.tlsKey });
  }
  const policy = TransportPolicy.fromConfig(config);
  if (policy.allowInsecure) {
    const mode = config.natsUrl ? 'cluster' : 'single-node';
    logger.warn(
      { mode, allow_insecure: config.allowInsecure ?? 'unset' },
      `INSECURE: no PTYWS_TLS_CERT/PTYWS_TLS_KEY — tokens and terminal data travel in clear text over ws:// and http://. ` +
        `Set TLS (or terminate it at a trusted proxy and set PTYWS_ALLOW_INSECURE=0 with PTYWS_TRUSTED_PROXIES) in production.`,
    );
  } else {
    logger.warn(
      { trusted_proxies: config.trustedProxies, host: config.host, allow_insecure: config.allowInsecure ?? 'unset' },
      config.allowInsecure === false
        ? 'no TLS configured and PTYWS_ALLOW_INSECURE=0: requests are accepted only from trusted proxies that saw https'
        : `no TLS configured and PTYWS_HOST=${config.host} is not loopback: plain http/ws is refused (403) except from trusted proxies that saw https; set PTYWS_TLS_CERT/PTYWS_TLS_KEY, or PTYWS_ALLOW_INSECURE=1 to accept it`,
    );
  }
  return uWS.App();
}
