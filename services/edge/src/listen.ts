import type { Config } from '@pty-ws/config';
import type { MtlsFront } from './mtls/mtls-front';
import { privateSocketPath } from './mtls/private-socket';
import { uWS, type TemplatedApp, type us_listen_socket } from './uws';

/** The edge's listening socket: the port clients reach, and how to let go of it. */
export interface EdgeListener {
  port: number;
  close(): Promise<void>;
}

/** uSockets' listen option (the typings' ListenOptions enum has no runtime value to import). */
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;

/**
 * uWS's native listen takes (host, port, options, cb); its typings only declare options without a
 * host. Exclusive matters: by default uWS sets SO_REUSEPORT on a given port, so a second edge (or
 * anything else run by the same user) bound to the same port succeeds silently and the kernel
 * splits connections between the two. An edge must own its port or fail to start.
 */
interface ExclusiveListen {
  listen(host: string, port: number, options: number, cb: (listenSocket: us_listen_socket | false) => void): unknown;
}

/**
 * Listens on PTYWS_HOST:PTYWS_PORT. Behind the mTLS front the app listens on a unix socket only
 * this user can reach, and the front listens on the port and relays verified connections to it.
 */
export async function listenEdge(
  app: TemplatedApp,
  config: Pick<Config, 'host' | 'port'>,
  front: MtlsFront | undefined,
): Promise<EdgeListener> {
  const backend = front ? privateSocketPath() : undefined;
  const listenSocket = await new Promise<us_listen_socket>((resolve, reject) => {
    if (backend)
      app.listen_unix((s) => (s ? resolve(s) : reject(new Error(`cannot listen on ${backend.path}`))), backend.path);
    else
      (app as unknown as ExclusiveListen).listen(config.host, config.port, LIBUS_LISTEN_EXCLUSIVE_PORT, (s) =>
        s
          ? resolve(s)
          : reject(
              new Error(`cannot listen on ${config.host}:${config.port} (in use, or not an address of this host)`),
            ),
      );
  });
  let port = uWS.us_socket_local_port(listenSocket);
  if (front && backend) {
    try {
      port = await front.listen(config.host, config.port, backend.path);
    } catch (err) {
      uWS.us_listen_socket_close(listenSocket);
      backend.remove();
      throw new Error(`cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`);
    }
  }
  return {
    port,
    async close() {
      uWS.us_listen_socket_close(listenSocket);
      await front?.close();
      backend?.remove();
    },
  };
}
