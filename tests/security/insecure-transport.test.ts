/**
 * Secure by default off loopback (binding §11: production MUST refuse plain ws:// without an
 * explicit override). Without TLS and without PTYWS_ALLOW_INSECURE, a listener on loopback accepts
 * plain http/ws/gRPC (a local `npm start`), one on any other address refuses them; =1 accepts them
 * anywhere, =0 refuses them everywhere, gRPC included (issue 13: plaintext gRPC used to accept
 * bearer tokens with PTYWS_ALLOW_INSECURE=0).
 */
import { TestContext, http, tryUpgrade } from '@pty-ws/testkit';
import { call, clients, grpc, meta, statusOf } from '../grpc/support';

jest.setTimeout(90_000);

async function withServer<T>(overrides: Parameters<typeof TestContext.start>[0], fn: (ctx: TestContext) => Promise<T>) {
  const ctx = await TestContext.startWithGrpc(overrides);
  try {
    return await fn(ctx);
  } finally {
    await ctx.dispose();
  }
}

async function grpcStatus(ctx: TestContext): Promise<grpc.status | 'ok'> {
  const c = clients(ctx.server.grpcAddresses[0]!.replace(/^0\.0\.0\.0:/, '127.0.0.1:'));
  try {
    await call(c.admin, c.admin.ListSessions, {}, meta(ctx.server.adminToken));
    return 'ok';
  } catch (err) {
    return (err as grpc.ServiceError).code;
  } finally {
    c.close();
  }
}

describe('plain transport without TLS', () => {
  it('bound beyond loopback with PTYWS_ALLOW_INSECURE unset: http, ws and gRPC are refused', async () => {
    await withServer({ host: '0.0.0.0' }, async (ctx) => {
      const rest = await http(ctx.server, 'GET', '/api/v1/sessions');
      expect(rest.status).toBe(403);
      expect(rest.text).toMatch(/PTYWS_ALLOW_INSECURE/);
      const up = await tryUpgrade(ctx.server.attachUrl('any'), { token: ctx.server.adminToken });
      expect(up.status).toBe(403);
      expect(await grpcStatus(ctx)).toBe(grpc.status.PERMISSION_DENIED);
      // Probes stay reachable.
      expect((await http(ctx.server, 'GET', '/healthz', { token: null })).status).toBe(200);
    });
  });

  it('bound beyond loopback with PTYWS_ALLOW_INSECURE=1: accepted', async () => {
    await withServer({ host: '0.0.0.0', allowInsecure: true }, async (ctx) => {
      expect((await http(ctx.server, 'GET', '/api/v1/sessions')).status).toBe(200);
      expect(await grpcStatus(ctx)).toBe('ok');
    });
  });

  it('on loopback with PTYWS_ALLOW_INSECURE unset (npm start): accepted', async () => {
    await withServer({}, async (ctx) => {
      expect((await http(ctx.server, 'GET', '/api/v1/sessions')).status).toBe(200);
      expect(await grpcStatus(ctx)).toBe('ok');
    });
  });

  it('PTYWS_ALLOW_INSECURE=0 refuses plaintext gRPC too, before looking at the bearer', async () => {
    await withServer({ allowInsecure: false }, async (ctx) => {
      expect((await http(ctx.server, 'GET', '/api/v1/sessions')).status).toBe(403);
      const c = clients(ctx.server.grpcAddresses[0]!);
      try {
        const refused = await statusOf(call(c.admin, c.admin.ListSessions, {}, meta(ctx.server.adminToken)));
        expect(refused.code).toBe(grpc.status.PERMISSION_DENIED);
        expect(refused.details).toMatch(/plaintext gRPC/);
      } finally {
        c.close();
      }
    });
  });
});
