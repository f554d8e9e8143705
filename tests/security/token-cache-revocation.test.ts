/**
 * Edges keep recently verified tokens for a few seconds (services/edge/src/verified-tokens.ts).
 * A revocation must still refuse the token at once on every edge: the one that revoked it and, in
 * cluster mode, the others (told over NATS). Each edge first verifies and caches the token, keeps
 * a connection of it open, and once that connection is closed with principal_revoked (the edge has
 * heard of the revocation) a new upgrade with the token must get 401, not a cached yes.
 */
import { ClusterHandle, TestClient, TestContext, http, tryUpgrade } from '@pty-ws/testkit';

jest.setTimeout(60_000);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await TestContext.start();
});
afterAll(async () => {
  await ctx?.dispose();
});

/** Every edge's ws:// base: one in embedded mode, each edge process in cluster mode. */
function edgeWsUrls(): string[] {
  if (ctx.server.mode === 'cluster') return (ctx.server.node as ClusterHandle).edgeWsUrls;
  return [ctx.server.wsUrl];
}

describe('verified-token cache and revocation', () => {
  it('a revoked token is refused at once on every edge, although each had just verified it', async () => {
    const { session_id: sessionId } = await ctx.createSession({ argv: ['/bin/cat'] });
    const t = await ctx.mintToken({ scopes: ['pty:observe'], label: 'cached-then-revoked' });
    const urls = edgeWsUrls().map((base) => `${base}/agents/${ctx.server.instanceId}/sessions/${sessionId}/attach`);
    const held: TestClient[] = [];
    for (const url of urls) {
      // Twice: the second upgrade is answered from the edge's cache.
      expect((await tryUpgrade(url, { token: t.token })).status).toBe(101);
      expect((await tryUpgrade(url, { token: t.token })).status).toBe(101);
      held.push(await TestClient.connect(url, { token: t.token }));
    }
    const del = await http(ctx.server, 'DELETE', `/api/v1/tokens/${t.token_id}`);
    expect([200, 204]).toContain(del.status);
    // Each edge closes its connection of the token once it knows of the revocation.
    const closes = await Promise.all(held.map((c) => c.closed));
    for (const c of closes) expect(c.code).toBe(4401);
    for (const url of urls) expect((await tryUpgrade(url, { token: t.token })).status).toBe(401);
  });
});
