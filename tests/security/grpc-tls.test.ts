/**
 * The gRPC server under PTYWS_TLS_CERT/KEY: it serves TLS with the edge's certificate (a client
 * trusting it gets through, a plaintext client does not), and bearer metadata still decides.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { grpcPackage, type admin } from '@pty-ws/a2a-proto';
import { TestContext } from '@pty-ws/testkit';

function selfSigned(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1']
      .concat(['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'])
      .concat(['-keyout', key, '-out', cert]),
    { stdio: 'ignore' },
  );
  return { cert, key };
}

function listSessions(client: admin.AdminServiceClient, token: string): Promise<admin.ListSessionsResponse__Output> {
  const md = new grpc.Metadata();
  md.set('authorization', `Bearer ${token}`);
  return new Promise((resolve, reject) =>
    client.ListSessions({}, md, { deadline: Date.now() + 5000 }, (err, res) => (err ? reject(err) : resolve(res!))),
  );
}

describe('gRPC over TLS', () => {
  let dir = '';
  let ctx: TestContext;
  let cert = '';
  const opened: grpc.Client[] = [];
  const adminClient = (creds: grpc.ChannelCredentials) => {
    // By name: the certificate names localhost (TLS server names must not be IP addresses).
    const port = ctx.server.grpcAddresses[0]!.split(':').at(-1)!;
    const c = new (grpcPackage().ptyws.admin.v1.AdminService)(`localhost:${port}`, creds);
    opened.push(c);
    return c;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ptyws-grpc-tls-'));
    const files = selfSigned(dir);
    cert = files.cert;
    ctx = await TestContext.startWithGrpc({ tlsCert: files.cert, tlsKey: files.key });
  });
  afterAll(async () => {
    for (const c of opened) c.close();
    await ctx?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a client trusting the edge certificate gets through; bearer metadata still decides', async () => {
    const secure = adminClient(grpc.credentials.createSsl(readFileSync(cert)));
    await expect(listSessions(secure, ctx.server.adminToken)).resolves.toMatchObject({});
    await expect(listSessions(secure, 'ptyws_wrong')).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
  });

  it('a plaintext client is refused', async () => {
    const plain = adminClient(grpc.credentials.createInsecure());
    await expect(listSessions(plain, ctx.server.adminToken)).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
  });
});
