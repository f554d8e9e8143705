/**
 * Deeply nested JSON is refused where it is parsed (issue 13: a SendMessage nested a few thousand
 * levels deep overflowed the stack further in, answered INTERNAL): REST bodies, pty-ws/v1 frames
 * and A2A messages of every binding answer INVALID_REQUEST / InvalidParams instead.
 */
import { SUBPROTOCOL_JSON, jsonTooDeep, newId } from '@pty-ws/protocol';
import { TestContext, http, is } from '@pty-ws/testkit';
import { jsonRpcPath } from '../a2a/support';

jest.setTimeout(60_000);

/** `{"a":{"a":…}}` `levels` deep, as text (building it as an object would need recursion too). */
const deepText = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

let ctx: TestContext;
let sessionId = '';
beforeAll(async () => {
  ctx = await TestContext.start();
  sessionId = (await ctx.createSession({ argv: ['/bin/cat'] })).session_id;
});
afterAll(async () => {
  await ctx?.dispose();
});

it('jsonTooDeep walks without recursion', () => {
  expect(jsonTooDeep(JSON.parse(deepText(100_000)))).toBe(true);
  expect(jsonTooDeep(JSON.parse(deepText(10)))).toBe(false);
});

it('a deeply nested A2A SendMessage is InvalidParams, not INTERNAL', async () => {
  const body =
    `{"jsonrpc":"2.0","id":"d1","method":"SendMessage","params":{"message":{"messageId":"${newId()}",` +
    `"role":"ROLE_USER","parts":[{"text":"echo hi"}],"metadata":{"sessionId":"${sessionId}","deep":${deepText(20_000)}}}}}`;
  const res = await http(ctx.server, 'POST', jsonRpcPath(ctx), { rawBody: body });
  const error = (res.body as { error?: { code: number; message: string } }).error;
  expect(error?.code).toBe(-32602);
  expect(error?.message).toMatch(/deeper/);
});

it('a deeply nested REST body is 400 INVALID_REQUEST', async () => {
  const res = await http(ctx.server, 'POST', '/api/v1/tokens', {
    rawBody: `{"scopes":["pty:observe"],"label":${deepText(20_000)}}`,
  });
  expect(res.status).toBe(400);
  expect(res.text).toMatch(/deeper/);
});

it('a deeply nested pty-ws/v1 frame is answered INVALID_REQUEST', async () => {
  const client = await ctx.attach(sessionId, { protocols: [SUBPROTOCOL_JSON] });
  client.sendRaw(
    `{"op":"pty.session_input","id":"${newId()}","ts":"${new Date().toISOString()}","payload":${deepText(20_000)}}`,
  );
  const err = await client.waitFor(is.op('Error'), 5000);
  expect(JSON.stringify(err.type === 'json' ? err.frame.payload : {})).toMatch(/nest/);
});
