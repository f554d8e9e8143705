/**
 * mTLS on the gRPC port (PTYWS_TLS_CA): the server requires a client certificate signed by the CA
 * in the handshake, as the HTTP port does; without a bearer token the certificate's identity
 * (`cert:<CN>`, PTYWS_MTLS_SCOPES) is the principal; a bearer token, when sent, decides.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { grpcPackage, type a2a, type admin } from '@pty-ws/a2a-proto';
import { TestContext } from '@pty-ws/testkit';
import { makeCa, makeLeaf } from './certs';

type Md = grpc.Metadata;
const deadline = () => ({ deadline: Date.now() + 10_000 });
const metadata = (token?: string): Md => {
  const md = new grpc.Metadata();
  if (token) md.set('authorization', `Bearer ${token}`);
  return md;
};
const promise = <T>(run: (cb: (err: grpc.ServiceError | null, res?: T) => void) => void): Promise<T> =>
  new Promise((resolve, reject) => run((err, res) => (err ? reject(err) : resolve(res as T))));

describe('gRPC with client certificates (PTYWS_TLS_CA)', () => {
  let dir = '';
  let ctx: TestContext;
  let serverCa: Buffer;
  let alice: { cert: Buffer; key: Buffer };
  let mallory: { cert: Buffer; key: Buffer };
  let nameless: { cert: Buffer; key: Buffer };
  const opened: grpc.Client[] = [];

  const channel = (client?: { cert: Buffer; key: Buffer }) =>
    client ? grpc.credentials.createSsl(serverCa, client.key, client.cert) : grpc.credentials.createSsl(serverCa);
  // By name: the server certificate names localhost.
  const target = () => `localhost:${ctx.server.grpcAddresses[0]!.split(':').at(-1)!}`;
  const adminClient = (client?: { cert: Buffer; key: Buffer }): admin.AdminServiceClient => {
    const c = new (grpcPackage().ptyws.admin.v1.AdminService)(target(), channel(client));
    opened.push(c);
    return c;
  };
  const a2aClient = (client?: { cert: Buffer; key: Buffer }): a2a.A2AServiceClient => {
    const c = new (grpcPackage().lf.a2a.v1.A2AService)(target(), channel(client));
    opened.push(c);
    return c;
  };
  const listTokens = (c: admin.AdminServiceClient, token?: string) =>
    promise<admin.ListTokensResponse__Output>((cb) => c.ListTokens({}, metadata(token), deadline(), cb));
  const createToken = (c: admin.AdminServiceClient, token?: string) =>
    promise<admin.CreateTokenResponse__Output>((cb) =>
      c.CreateToken({ scopes: ['pty:observe'], label: 'minted over mTLS' }, metadata(token), deadline(), cb),
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ptyws-grpc-mtls-'));
    const clientsCa = makeCa(dir, 'clients-ca');
    const serverCaPem = makeCa(dir, 'server-ca');
    const rogueCa = makeCa(dir, 'rogue-ca');
    const server = makeLeaf(dir, 'server', serverCaPem, '/CN=localhost', 'IP:127.0.0.1,DNS:localhost', false);
    const a = makeLeaf(dir, 'alice', clientsCa, '/CN=alice-bot/O=ops', 'DNS:alice.example', true);
    const m = makeLeaf(dir, 'mallory', rogueCa, '/CN=alice-bot', 'DNS:alice.example', true);
    // Signed by the right CA, but no CN and no DNS/URI/email name: it identifies nobody.
    const n = makeLeaf(dir, 'nameless', clientsCa, '/O=ops', 'IP:10.0.0.1', true);
    serverCa = readFileSync(serverCaPem.cert);
    alice = { cert: readFileSync(a.cert), key: readFileSync(a.key) };
    mallory = { cert: readFileSync(m.cert), key: readFileSync(m.key) };
    nameless = { cert: readFileSync(n.cert), key: readFileSync(n.key) };
    ctx = await TestContext.startWithGrpc({
      tlsCert: server.cert,
      tlsKey: server.key,
      tlsCa: clientsCa.cert,
      // Admin for the certificate, so what it did shows whose it was (created_by).
      mtlsScopes: ['pty:observe', 'pty:admin'],
      allowInsecure: false,
    });
  });
  afterAll(async () => {
    for (const c of opened) c.close();
    await ctx?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a certificate signed by the CA is the principal without a token: cert:<CN> with PTYWS_MTLS_SCOPES', async () => {
    const c = adminClient(alice);
    const minted = await createToken(c);
    expect(minted.token?.created_by).toBe('cert:alice-bot');
    // The A2A service takes the same principal (pty:observe suffices for ListTasks).
    const tasks = await promise<a2a.ListTasksResponse__Output>((cb) =>
      a2aClient(alice).ListTasks({}, metadata(), deadline(), cb),
    );
    expect(tasks.tasks ?? []).toEqual([]);
  });

  it('a bearer token decides when one is sent, certificate or not', async () => {
    const c = adminClient(alice);
    const minted = await createToken(c, ctx.server.adminToken);
    expect(minted.token?.created_by).not.toBe('cert:alice-bot');
    expect(minted.token?.created_by).toMatch(/^token:|^admin/);
    await expect(listTokens(c, 'ptyws_wrong')).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    // An observe-only token does not inherit the certificate's pty:admin.
    const observer = await createToken(c, ctx.server.adminToken);
    await expect(listTokens(c, observer.secret)).rejects.toMatchObject({ code: grpc.status.PERMISSION_DENIED });
  });

  it('a certificate that names nobody is no principal: UNAUTHENTICATED without a token', async () => {
    const c = adminClient(nameless);
    await expect(listTokens(c)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    await expect(listTokens(c, ctx.server.adminToken)).resolves.toHaveProperty('tokens');
  });

  it('a client without a certificate is refused in the handshake, even with the admin token', async () => {
    await expect(listTokens(adminClient(), ctx.server.adminToken)).rejects.toMatchObject({
      code: grpc.status.UNAVAILABLE,
    });
  });

  it('a certificate of another CA is refused in the handshake, even with the admin token', async () => {
    await expect(listTokens(adminClient(mallory), ctx.server.adminToken)).rejects.toMatchObject({
      code: grpc.status.UNAVAILABLE,
    });
  });

  it('plaintext gRPC is refused', async () => {
    const plain = new (grpcPackage().ptyws.admin.v1.AdminService)(target(), grpc.credentials.createInsecure());
    opened.push(plain);
    await expect(listTokens(plain, ctx.server.adminToken)).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
  });
});
