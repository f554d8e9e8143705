/** Per-test-file fixture: one server, the clients opened against it, and one dispose(). */
import type { Config } from '@pty-ws/config';
import { TestClient, type ConnectOptions } from './client';
import { DroppedBeforeHello, retryDroppedAttach } from './dropped-attach';
import {
  createSession,
  mintToken,
  type CreateSessionBody,
  type CreatedSession,
  type MintTokenBody,
  type MintedToken,
} from './rest';
import { freePort, onFreePorts } from './ports';
import { startTestServer, type TestServer } from './server';

export interface AttachOptions extends ConnectOptions {
  /** Connect without any bearer token. */
  anonymous?: boolean;
  instanceId?: string;
}

export class TestContext {
  private readonly clients = new Set<TestClient>();
  private disposed = false;

  private constructor(readonly server: TestServer) {}

  static async start(overrides: Partial<Config> = {}): Promise<TestContext> {
    return new TestContext(await startTestServer(overrides));
  }
  /**
   * A server with its gRPC server on a port `freePort` picked. Another process can take that port
   * before the server binds it (seen in CI: EADDRINUSE): then it is started again on a new one.
   */
  static async startWithGrpc(
    overrides: Partial<Config> = {},
    pickPort: () => Promise<number> = freePort,
  ): Promise<TestContext> {
    return onFreePorts(async () => TestContext.start({ grpcPort: await pickPort(), ...overrides }));
  }

  get config(): Config {
    return this.server.node.config;
  }

  /** Opens a WebSocket to the session (admin bearer by default) without waiting for frames. */
  async connect(sessionId: string, opts: AttachOptions = {}): Promise<TestClient> {
    const withToken: ConnectOptions = { ...opts };
    if (!opts.anonymous && opts.token === undefined && opts.subprotocolToken === undefined)
      withToken.token = this.server.adminToken;
    const client = await TestClient.connect(this.server.attachUrl(sessionId, opts.instanceId), withToken);
    this.clients.add(client);
    void client.closed.then(() => this.clients.delete(client));
    return client;
  }

  /** Connects and waits for `binding_hello`; a socket dropped before it is opened again (dropped-attach.ts). */
  attach(sessionId: string, opts: AttachOptions = {}): Promise<TestClient> {
    return retryDroppedAttach('test client', async () => {
      const client = await this.connect(sessionId, opts);
      try {
        await client.hello();
        return client;
      } catch (err) {
        if (client.isOpen || client.frames.length > 0 || (await client.closed).code !== 1006) throw err;
        throw new DroppedBeforeHello(`attach to ${sessionId} closed 1006 before binding_hello`);
      }
    });
  }

  createSession(body: CreateSessionBody = {}): Promise<CreatedSession> {
    return createSession(this.server, body);
  }

  mintToken(body: MintTokenBody): Promise<MintedToken> {
    return mintToken(this.server, body);
  }

  /** Closes every client still open, then stops the server. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const c of this.clients) c.terminate();
    this.clients.clear();
    await this.server.stop();
  }
}
