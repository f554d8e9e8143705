/**
 * A token's expiry ends the connections it opened (issue 13: expiry was checked only at upgrade,
 * so a socket opened just before kept typing afterwards). The edge closes each such connection
 * when its token expires, as it does for a revocation: binding_goodbye principal_revoked, 4401.
 */
import { TestContext, TestClient, is, tryUpgrade } from '@pty-ws/testkit';

jest.setTimeout(60_000);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await TestContext.start();
});
afterAll(async () => {
  await ctx?.dispose();
});

it('an open connection is closed with binding_goodbye and 4401 when its token expires', async () => {
  const { session_id: sessionId } = await ctx.createSession({ argv: ['/bin/cat'] });
  const t = await ctx.mintToken({ scopes: ['pty:control'], ttl_seconds: 1, label: 'short-lived' });
  const url = ctx.server.attachUrl(sessionId);
  const client = await TestClient.connect(url, { token: t.token });
  await client.hello();
  const close = await client.closed;
  expect(close.code).toBe(4401);
  const goodbye = await client.waitFor(is.op('binding_goodbye'), 1000);
  expect(goodbye.type === 'json' && goodbye.frame.payload).toMatchObject({ reason: 'principal_revoked' });
  expect((await tryUpgrade(url, { token: t.token })).status).toBe(401);
  // An unexpiring token's connection is not touched meanwhile.
  const steady = await ctx.attach(sessionId);
  expect(steady).toBeDefined();
});
