import { createServer, type Server } from 'node:net';
import { TestContext, freePort, testMode } from '@pty-ws/testkit';

/**
 * A gRPC port picked by `freePort` can be taken by another process before the server binds it
 * (CI: `cannot listen for gRPC on 0.0.0.0:46571: … EADDRINUSE`). startWithGrpc starts again on
 * another port instead of failing the test file. Single-node only: cluster edges pick their own.
 */
const embedded = testMode() === 'embedded' ? describe : describe.skip;

function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, '0.0.0.0', () => resolve(srv));
  });
}

embedded('TestContext.startWithGrpc', () => {
  it('starts on another port when the one it picked is taken meanwhile', async () => {
    const taken = await freePort();
    const squatter = await occupy(taken);
    const picks: number[] = [];
    const pick = async () => {
      const port = picks.length === 0 ? taken : await freePort();
      picks.push(port);
      return port;
    };
    const ctx = await TestContext.startWithGrpc({ host: '0.0.0.0', allowInsecure: true }, pick);
    try {
      expect(picks).toHaveLength(2);
      expect(ctx.server.grpcAddresses).toEqual([`0.0.0.0:${picks[1]}`]);
    } finally {
      await ctx.dispose();
      await new Promise((r) => squatter.close(r));
    }
  });

  it('gives up after three taken ports with the server’s own error', async () => {
    const taken = await freePort();
    const squatter = await occupy(taken);
    try {
      await expect(
        TestContext.startWithGrpc({ host: '0.0.0.0', allowInsecure: true }, async () => taken),
      ).rejects.toThrow(`cannot listen for gRPC on 0.0.0.0:${taken}`);
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  });
});
