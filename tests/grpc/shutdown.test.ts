/**
 * Graceful shutdown reaches the gRPC server too: a stopping edge ends its open gRPC streams and
 * stops listening, so no call hangs past the drain.
 */
import { newId } from '@pty-ws/protocol';
import { TestContext } from '@pty-ws/testkit';
import { call, clients, collect, grpc, meta, statusOf } from './support';

describe('gRPC on shutdown', () => {
  it('open streams end and new calls fail with UNAVAILABLE once the server stopped', async () => {
    const ctx = await TestContext.startWithGrpc();
    const c = clients(ctx.server.grpcAddresses[0]!);
    try {
      const sessionId = (await ctx.createSession({ argv: ['/bin/sh'] })).session_id;
      const md = meta(ctx.server.adminToken);
      const started = await call(
        c.a2a,
        c.a2a.SendMessage,
        {
          message: {
            message_id: newId(),
            role: 'ROLE_USER',
            parts: [{ text: 'sleep 60' }],
            metadata: { fields: { session_id: { stringValue: sessionId } } },
          },
          configuration: { return_immediately: true },
        },
        md,
      );
      const stream = collect(c.a2a.SubscribeToTask({ id: started.task!.id }, md));
      await ctx.server.stop();
      const ended = await stream.then(
        () => grpc.status.OK,
        (err: grpc.ServiceError) => err.code,
      );
      // It ended (a hanging stream would time the test out), cut off by the shutdown.
      expect([grpc.status.OK, grpc.status.CANCELLED, grpc.status.UNAVAILABLE]).toContain(ended);
      expect((await statusOf(call(c.admin, c.admin.ListSessions, {}, md))).code).toBe(grpc.status.UNAVAILABLE);
    } finally {
      c.close();
      await ctx.dispose();
    }
  });
});
