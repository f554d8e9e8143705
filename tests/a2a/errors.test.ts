/**
 * The control-plane bindings refuse what they must: missing or weak credentials, the
 * pty-extensions/v1 activation (extension §3), malformed requests, unknown methods and paths.
 */
import { EXTENSION_URI } from '@pty-ws/protocol';
import { http } from '@pty-ws/testkit';
import type { Task } from '@pty-ws/protocol';
import {
  errorInfoOf,
  jsonRpcPath,
  newSession,
  ptyWsParams,
  rawPost,
  reasonOf,
  rest,
  restBase,
  restOk,
  rpc,
  textMessage,
  useServer,
} from './support';

describe('A2A control-plane errors', () => {
  const ctx = useServer({ authEnabled: true });
  let session = '';
  let observer = '';
  let controller = '';
  let sessionBound = '';
  let otherSession = '';

  beforeAll(async () => {
    session = await newSession(ctx());
    otherSession = await newSession(ctx());
    observer = (await ctx().mintToken({ scopes: ['pty:observe'] })).token;
    controller = (await ctx().mintToken({ scopes: ['pty:control'] })).token;
    sessionBound = (await ctx().mintToken({ scopes: ['pty:control'], session_id: session })).token;
  });

  describe('auth', () => {
    it('no or a bad bearer token: 401 on both bindings', async () => {
      for (const token of [null, 'ptyws_not-a-real-token']) {
        const r = await rest(ctx(), 'GET', '/tasks', undefined, { token });
        expect(r.status).toBe(401);
        expect(reasonOf(r.body)).toBe('UNAUTHENTICATED');
        const j = await rpc(ctx(), 'ListTasks', {}, { token });
        expect(j.status).toBe(401);
        // No JSON-RPC or A2A code is about credentials: -32600, told apart by the ErrorInfo reason.
        expect(j.error?.code).toBe(-32600);
        expect(errorInfoOf(j)).toMatchObject({ reason: 'UNAUTHENTICATED', domain: 'pty-ws' });
      }
    });

    it('pty:observe reads but cannot send or cancel (PermissionDenied)', async () => {
      const { task } = await restOk<{ task: Task }>(ctx(), 'POST', '/message:send', {
        message: textMessage('echo seen', session),
      });
      expect((await rest(ctx(), 'GET', `/tasks/${task.id}`, undefined, { token: observer })).status).toBe(200);
      expect((await rpc(ctx(), 'ListTasks', {}, { token: observer })).status).toBe(200);
      const send = await rest(
        ctx(),
        'POST',
        '/message:send',
        { message: textMessage('echo no', session) },
        { token: observer },
      );
      expect(send.status).toBe(403);
      expect(reasonOf(send.body)).toBe('PERMISSION_DENIED');
      const cancel = await rpc(ctx(), 'CancelTask', { id: task.id }, { token: observer });
      expect(cancel.status).toBe(403);
      expect(cancel.error?.code).toBe(-32600);
      expect(errorInfoOf(cancel)).toMatchObject({
        reason: 'PERMISSION_DENIED',
        metadata: { error: 'PermissionDenied' },
      });
      const push = await rest(
        ctx(),
        'POST',
        `/tasks/${task.id}/pushNotificationConfigs`,
        { url: 'http://127.0.0.1:9/x' },
        { token: observer },
      );
      expect(push.status).toBe(403);
      expect(
        (
          await rest(
            ctx(),
            'POST',
            '/message:send',
            { message: textMessage('echo yes', session) },
            { token: controller },
          )
        ).status,
      ).toBe(200);
    });

    it("a session-bound token runs in its session by default and sees no other session's tasks", async () => {
      const mine = await restOk<{ task: Task }>(
        ctx(),
        'POST',
        '/message:send',
        { message: textMessage('echo bound') },
        { token: sessionBound },
      );
      expect(mine.task.status.state).toBe('TASK_STATE_COMPLETED');
      const other = await restOk<{ task: Task }>(ctx(), 'POST', '/message:send', {
        message: textMessage('echo other', otherSession),
      });
      expect((await rest(ctx(), 'GET', `/tasks/${other.task.id}`, undefined, { token: sessionBound })).status).toBe(
        404,
      );
      const listed = await restOk<{ tasks: Task[] }>(ctx(), 'GET', '/tasks?pageSize=100', undefined, {
        token: sessionBound,
      });
      expect(listed.tasks.map((t) => t.id)).toContain(mine.task.id);
      expect(listed.tasks.map((t) => t.id)).not.toContain(other.task.id);
      const elsewhere = await rest(
        ctx(),
        'POST',
        '/message:send',
        { message: textMessage('echo x', otherSession) },
        { token: sessionBound },
      );
      expect(elsewhere.status).toBe(403);
    });
  });

  describe('pty-extensions/v1 is UnsupportedExtension here (extension §3)', () => {
    it('activated with the A2A-Extensions header on REST and JSON-RPC', async () => {
      const headers = { 'A2A-Extensions': `https://example.com/other, ${EXTENSION_URI}` };
      const r = await rest(ctx(), 'POST', '/message:send', { message: textMessage('echo x', session) }, { headers });
      expect(r.status).toBe(400);
      expect(reasonOf(r.body)).toBe('EXTENSION_SUPPORT_REQUIRED');
      expect(JSON.stringify(r.body)).toContain('UnsupportedExtension');
      const j = await rpc(ctx(), 'GetTask', { id: 'x' }, { headers });
      expect(j.error?.code).toBe(-32008);
      expect(errorInfoOf(j)).toMatchObject({
        reason: 'EXTENSION_SUPPORT_REQUIRED',
        domain: 'a2a-protocol.org',
        metadata: { error: 'UnsupportedExtension' },
      });
    });

    it('activated in the JSON-RPC params', async () => {
      const j = await rpc(ctx(), 'SendMessage', {
        message: textMessage('echo x', session),
        extensions: [EXTENSION_URI],
      });
      expect(j.error?.code).toBe(-32008);
    });

    it('other extension URIs are ignored', async () => {
      const r = await rest(ctx(), 'GET', '/tasks', undefined, {
        headers: { 'A2A-Extensions': 'https://example.com/ext/v1' },
      });
      expect(r.status).toBe(200);
    });
  });

  describe('JSON-RPC error objects: integer codes the specs name, ErrorInfo in data', () => {
    const raw = (body: string, headers: Record<string, string> = {}) =>
      http(ctx().server, 'POST', jsonRpcPath(ctx()), { rawBody: body, headers });
    const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

    it.each<[string, number, string, () => Promise<{ body: unknown }>]>([
      ['parse error', -32700, 'PARSE_ERROR', () => raw('{"jsonrpc":')],
      ['invalid request', -32600, 'INVALID_REQUEST', () => raw('{"jsonrpc":"1.0","id":1,"method":"GetTask"}')],
      ['method not found', -32601, 'METHOD_NOT_FOUND', () => raw('{"jsonrpc":"2.0","id":1,"method":"Explode"}')],
      [
        'invalid params',
        -32602,
        'INVALID_PARAMS',
        () => raw('{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{}}'),
      ],
      [
        'task not found',
        -32001,
        'TASK_NOT_FOUND',
        () => raw('{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"0190aaaa-0000-7000-8000-0000000000aa"}}'),
      ],
      [
        'extended card not configured',
        -32007,
        'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
        () => raw('{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard"}'),
      ],
      [
        'version not supported',
        -32009,
        'VERSION_NOT_SUPPORTED',
        () => raw('{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}', { 'A2A-Version': '0.5' }),
      ],
    ])('%s: %d %s', async (_name, code, reason, call) => {
      const body = (await call()).body as {
        jsonrpc: string;
        error: { code: unknown; message: unknown; data: unknown };
      };
      expect(body.jsonrpc).toBe('2.0');
      expect(body.error.code).toBe(code);
      expect(Number.isInteger(body.error.code)).toBe(true);
      expect(typeof body.error.message).toBe('string');
      expect(Array.isArray(body.error.data)).toBe(true);
      expect((body.error.data as unknown[])[0]).toMatchObject({
        '@type': ERROR_INFO,
        reason,
        domain: code >= -32099 && code <= -32001 ? 'a2a-protocol.org' : 'pty-ws',
      });
    });

    it('REST answers the same errors with their HTTP status and the same ErrorInfo', async () => {
      const card = await rest(ctx(), 'GET', '/extendedAgentCard');
      expect(card.status).toBe(400);
      expect(reasonOf(card.body)).toBe('EXTENDED_AGENT_CARD_NOT_CONFIGURED');
      const version = await rest(ctx(), 'GET', '/tasks', undefined, { headers: { 'A2A-Version': '2.0' } });
      expect(version.status).toBe(400);
      expect(reasonOf(version.body)).toBe('VERSION_NOT_SUPPORTED');
      expect((await rest(ctx(), 'GET', '/tasks', undefined, { headers: { 'A2A-Version': '1.0' } })).status).toBe(200);
    });
  });

  describe('bad input', () => {
    const raw = (path: string, body: string) => http(ctx().server, 'POST', path, { rawBody: body });

    it('JSON-RPC: parse error -32700, invalid request -32600, unknown method -32601, bad params -32602', async () => {
      const parse = await raw(jsonRpcPath(ctx()), '{"jsonrpc": "2.0", "id": 1,');
      expect(parse.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      const notRpc = await raw(jsonRpcPath(ctx()), JSON.stringify({ id: 2, method: 'GetTask' }));
      expect(notRpc.body).toMatchObject({ id: 2, error: { code: -32600 } });
      const batch = await raw(jsonRpcPath(ctx()), JSON.stringify([{ jsonrpc: '2.0', id: 3, method: 'GetTask' }]));
      expect(batch.body).toMatchObject({ error: { code: -32600 } });
      const unknown = await rpc(ctx(), 'tasks/explode', {});
      expect(unknown.error?.code).toBe(-32601);
      for (const params of [
        { message: { messageId: 'm', role: 'ROLE_USER', parts: 'echo' } },
        { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 42 }] } },
        { message: { messageId: 'm', role: 'banana', parts: [{ text: 'x' }] } },
        { message: { role: 'ROLE_USER', parts: [{ text: 'x' }] } },
        { message: 'echo' },
        {},
      ]) {
        const r = await rpc(ctx(), 'SendMessage', params);
        expect(r.error?.code).toBe(-32602);
      }
      expect((await rpc(ctx(), 'ListTasks', { pageSize: 0 })).error?.code).toBe(-32602);
      expect((await rpc(ctx(), 'ListTasks', { pageSize: 'many' })).error?.code).toBe(-32602);
      expect((await rpc(ctx(), 'ListTasks', { status: 'TASK_STATE_EXPLODED' })).error?.code).toBe(-32602);
      expect((await rpc(ctx(), 'ListTasks', { pageToken: 'garbage' })).error?.code).toBe(-32602);
      const paramsArray = await raw(
        jsonRpcPath(ctx()),
        JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'GetTask', params: [1] }),
      );
      expect(paramsArray.body).toMatchObject({ id: 4, error: { code: -32602 } });
    });

    it('REST: malformed JSON, wrong types, wrong content type, unknown paths and methods', async () => {
      const base = restBase(ctx());
      const parse = await raw(`${base}/message:send`, '{"message":');
      expect(parse.status).toBe(400);
      expect(reasonOf(parse.body)).toBe('PARSE_ERROR');
      const types = await raw(`${base}/message:send`, JSON.stringify({ message: { message_id: 1, parts: [] } }));
      expect(types.status).toBe(400);
      expect(reasonOf(types.body)).toBe('INVALID_PARAMS');
      const form = await rawPost(ctx(), `${base}/message:send`, 'message=hi', 'application/x-www-form-urlencoded');
      expect(form.status).toBe(415);
      expect(reasonOf(form.body)).toBe('CONTENT_TYPE_NOT_SUPPORTED');
      const rpcForm = await rawPost(
        ctx(),
        jsonRpcPath(ctx()),
        '{"jsonrpc":"2.0","id":9,"method":"ListTasks"}',
        'text/plain',
      );
      expect(rpcForm.body).toMatchObject({ id: 9, error: { code: -32005 } });
      const nowhere = await rest(ctx(), 'GET', '/nowhere');
      expect(nowhere.status).toBe(404);
      expect(reasonOf(nowhere.body)).toBe('METHOD_NOT_FOUND');
      const wrongMethod = await rest(ctx(), 'DELETE', '/tasks');
      expect(wrongMethod.status).toBe(405);
      // A caller that may not create sessions (no pty:admin) must name one.
      const noSession = await rest(
        ctx(),
        'POST',
        '/message:send',
        { message: textMessage('echo where') },
        { token: controller },
      );
      expect(noSession.status).toBe(400);
      expect(JSON.stringify(noSession.body)).toMatch(/message\.metadata\.session_id/);
      const unknownSession = await rest(ctx(), 'POST', '/message:send', {
        message: textMessage('echo x', 'no-such-session'),
      });
      expect(unknownSession.status).toBe(400);
      const badQuery = await rest(ctx(), 'GET', '/tasks?pageSize=1000');
      expect(badQuery.status).toBe(400);
    });

    it('an instance this edge does not serve is 404 on both bindings', async () => {
      const r = await http(ctx().server, 'GET', '/agents/not-this-one/a2a/v1/tasks');
      expect(r.status).toBe(404);
      const j = await http(ctx().server, 'POST', '/agents/not-this-one/a2a/jsonrpc', {
        json: { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} },
      });
      expect(j.body).toMatchObject({ id: 1, error: { code: -32601 } });
    });
  });

  it('the AgentCard lists every binding with its endpoint, preference and notes, and push notifications', async () => {
    const res = await http(ctx().server, 'GET', `/agents/${ctx().server.instanceId}/.well-known/agent-card.json`);
    const card = res.body as {
      supportedInterfaces: Array<{ url: string; protocolBinding: string }>;
      capabilities: { pushNotifications: boolean };
      securitySchemes: Record<string, unknown>;
    };
    const { bindings } = ptyWsParams(card);
    const byUri = new Map(bindings.map((b) => [b.uri, b]));
    expect(byUri.get('HTTP+JSON')).toMatchObject({ preference: 'primary' });
    expect(byUri.get('HTTP+JSON')!.endpoint).toMatch(new RegExp(`/agents/${ctx().server.instanceId}/a2a/v1$`));
    expect(byUri.get('JSONRPC')!.endpoint).toMatch(new RegExp(`/agents/${ctx().server.instanceId}/a2a/jsonrpc$`));
    expect(byUri.get('HTTP+JSON')!.operations).toContain('SetTaskPushNotificationConfig');
    expect(byUri.get('HTTP+JSON')!.notes).toMatch(/ListTasks/);
    const ptyWs = bindings.find((b) => b.uri.includes('pty-ws'));
    expect(ptyWs?.preference).toBe('secondary');
    expect(ptyWs?.notes).toMatch(/ListTasks/);
    expect(card.capabilities.pushNotifications).toBe(true);
    expect(card.securitySchemes).toHaveProperty('bearer');
    expect(card.supportedInterfaces.map((i) => i.protocolBinding)).toEqual(
      expect.arrayContaining(['HTTP+JSON', 'JSONRPC']),
    );
    // The advertised REST endpoint is the one that answers.
    const url = new URL(`${byUri.get('HTTP+JSON')!.endpoint}/tasks`);
    expect((await http(ctx().server, 'GET', url.pathname)).status).toBe(200);
  });
});
