import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import type { Logger } from '../logger';
import { certificateIdentity } from './certificate-identity';
import { LoopbackPool } from './loopback-pool';

/** Who is behind a relayed connection: the TLS client's address and its certificate identity. */
export interface RelayedPeer {
  remoteAddress: string;
  certificate: string;
}

export interface MtlsFrontOptions {
  certFile: string;
  keyFile: string;
  caFile: string;
  logger: Logger;
}

/**
 * Terminates TLS with client-certificate verification (PTYWS_TLS_CA) in front of the uWS app and
 * relays each verified connection to it over a private unix socket.
 *
 * Why not uWS's own SSLApp `ca_file_name`: the uWebSockets.js build in use refuses a certificate
 * from an unknown CA but accepts a client that sends none (measured: the handshake succeeds), and
 * has no API to read the verified certificate (peer certificates reached
 * uWebSockets.js in a later release, PR #1062, which is not on the npm registry), and the
 * identity is what binding §7.1.2 makes the principal. The app listens on a unix socket in a
 * private (0700) directory, so no other user's process can reach it; each relayed connection
 * starts with a PROXY v2 header naming an address of its own (a 127.1.0.0/16… pool entry,
 * registered with its certificate identity before the connect), which uWS reports as the
 * request's proxied remote address. Requests without one (or naming an address no relay holds)
 * are refused (TransportPolicy). A TCP backend keyed by source address alone let a local process
 * bind a relay's address and be taken for its certificate.
 */
export class MtlsFront {
  private readonly server: Server;
  private readonly pool = new LoopbackPool();
  private readonly peers = new Map<string, RelayedPeer>();
  private readonly open = new Set<Socket>();
  private backendPath = '';

  constructor(private readonly opts: MtlsFrontOptions) {
    const read = (name: string, file: string): Buffer => {
      try {
        return readFileSync(file);
      } catch (err) {
        throw new Error(`${name}=${file} cannot be read: ${(err as Error).message}`);
      }
    };
    this.server = createServer({
      cert: read('PTYWS_TLS_CERT', opts.certFile),
      key: read('PTYWS_TLS_KEY', opts.keyFile),
      ca: read('PTYWS_TLS_CA', opts.caFile),
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
    });
    this.server.on('secureConnection', (socket) => this.relay(socket));
    this.server.on('tlsClientError', (err, socket) => {
      opts.logger.info({ remote: socket.remoteAddress, err: err.message }, 'mTLS handshake refused');
    });
  }

  /** Listens publicly; relays to the app's unix socket at `backendPath`. Returns the port bound. */
  listen(host: string, port: number, backendPath: string): Promise<number> {
    this.backendPath = backendPath;
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const addr = this.server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  }

  /** The peer behind a request the app received from `remoteAddress`, if it came through here. */
  peerOf(remoteAddress: string): RelayedPeer | undefined {
    return this.peers.get(remoteAddress);
  }

  close(): Promise<void> {
    for (const s of this.open) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: TLSSocket): void {
    const identity = certificateIdentity(client.getPeerCertificate());
    const source = identity ? this.pool.acquire() : undefined;
    if (!identity || !source) {
      this.opts.logger.warn({ remote: client.remoteAddress }, 'client certificate names no subject: refused');
      client.destroy();
      return;
    }
    this.peers.set(source, { remoteAddress: client.remoteAddress ?? '', certificate: identity });
    const app = connect({ path: this.backendPath });
    // The PROXY v2 header names the relay (uWS reports it as the proxied remote address).
    app.write(proxyV2Header(source));
    client.setNoDelay(true);
    app.setNoDelay(true);
    this.open.add(client);
    // pipe() honours backpressure both ways: a client that stops reading stalls the app socket,
    // where uWS's own backpressure handling (slow consumers) takes over.
    client.pipe(app);
    app.pipe(client);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      client.destroy();
      app.destroy();
      this.open.delete(client);
      this.peers.delete(source);
      this.pool.release(source);
    };
    client.on('close', end);
    app.on('close', end);
    client.on('error', end);
    app.on('error', end);
  }
}

const PROXY_V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);

/** A PROXY protocol v2 header (PROXY command, TCP over IPv4) from `source` to 127.0.0.1:0. */
export function proxyV2Header(source: string): Buffer {
  const octets = source.split('.').map(Number);
  return Buffer.concat([PROXY_V2_SIGNATURE, Buffer.from([0x21, 0x11, 0x00, 12, ...octets, 127, 0, 0, 1, 0, 0, 0, 0])]);
}
