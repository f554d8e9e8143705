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
 * relays each verified connection to it over loopback.
 *
 * Why not uWS's own SSLApp `ca_file_name`: the uWebSockets.js build in use refuses a certificate
 * from an unknown CA but accepts a client that sends none (measured: the handshake succeeds), and
 * has no API to read the verified certificate (peer certificates reached
 * uWebSockets.js in a later release, PR #1062, which is not on the npm registry), and the
 * identity is what binding §7.1.2 makes the principal. Each relayed connection comes from its own
 * loopback source address, registered with its certificate identity before the connect, so a
 * request's remote address (all uWS reports) finds its peer. Requests to the app that did not come
 * through here find none and are refused (TransportPolicy).
 */
export class MtlsFront {
  private readonly server: Server;
  private readonly pool = new LoopbackPool();
  private readonly peers = new Map<string, RelayedPeer>();
  private readonly open = new Set<Socket>();
  private backendPort = 0;

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

  /** Listens publicly; relays to the app's loopback listener on `backendPort`. Returns the port bound. */
  listen(host: string, port: number, backendPort: number): Promise<number> {
    this.backendPort = backendPort;
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
    const app = connect({ host: '127.0.0.1', port: this.backendPort, localAddress: source });
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
