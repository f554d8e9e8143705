/**
 * Every HTTP answer carries `X-Content-Type-Options: nosniff` (a browser never sniffs a JSON
 * error echoing request text into HTML or script); HSTS only under TLS (tls.test.ts checks it
 * there: on plain http it would be meaningless).
 */
import { TestContext, http } from '@pty-ws/testkit';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await TestContext.start();
});
afterAll(async () => {
  await ctx?.dispose();
});

it.each([
  ['GET', '/api/v1/sessions'],
  ['GET', '/api/v1/sessions/%ZZ'],
  ['GET', '/no/such/endpoint'],
  ['GET', '/healthz'],
  ['POST', '/api/v1/tokens'],
])('%s %s answers with nosniff and without HSTS on plain http', async (method, path) => {
  const res = await http(ctx.server, method, path, method === 'POST' ? { json: { scopes: 'bad' } } : {});
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('strict-transport-security')).toBeNull();
});
