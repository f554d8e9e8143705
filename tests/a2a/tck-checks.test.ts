/**
 * What the official A2A TCK (a2aproject/a2a-tck, v1.0 requirements) checks of a server, over the
 * HTTP bindings (HTTP+JSON and JSON-RPC; gRPC in tests/grpc/a2a.test.ts): the error each refusal
 * must be (A2A §3.1.1, §3.1.6, §5.4), the AgentCard's caching headers (§8.6), and the JSON-RPC
 * endpoint's trailing-slash spelling. The TCK itself is not a dependency: these are its checks.
 */
import { http } from '@pty-ws/testkit';
import {
  errorInfoOf,
  jsonRpcPath,
  newSession,
  readSse,
  reasonOf,
  rest,
  restBase,
  restOk,
  rpc,
  textMessage,
  useServer,
  type V1Task,
} from './support';

describe('A2A TCK checks on the HTTP bindings', () => {
  const ctx = useServer({ authEnabled: true });
  let session = '';
  /** A task that ran to COMPLETED. */
  let finished: V1Task;

  beforeAll(async () => {
    session = await newSession(ctx());
    ({ task: finished } = await restOk<{ task: V1Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage('echo finished', session),
    }));
    expect(finished.status.state).toBe('TASK_STATE_COMPLETED');
  });

  describe('STREAM-SUB-003: SubscribeToTask on a task in a terminal state is UnsupportedOperationError', () => {
    it('HTTP+JSON: 400 UNSUPPORTED_OPERATION as a JSON error, not an event stream (POST and GET)', async () => {
      for (const method of ['POST', 'GET']) {
        const s = await readSse(ctx(), method, `${restBase(ctx())}/tasks/${finished.id}:subscribe`, undefined);
        expect(s.status).toBe(400);
        expect(s.contentType).toMatch(/application\/json/);
        expect(s.events).toEqual([]);
        expect(reasonOf(s.body)).toBe('UNSUPPORTED_OPERATION');
      }
    });

    it('JSON-RPC: -32004', async () => {
      for (const method of ['SubscribeToTask', 'tasks/resubscribe']) {
        const r = await rpc(ctx(), method, { id: finished.id });
        expect(r.error?.code).toBe(-32004);
        expect(errorInfoOf(r)).toMatchObject({ reason: 'UNSUPPORTED_OPERATION', domain: 'a2a-protocol.org' });
      }
    });
  });

  describe('CORE-SEND-002: a message to a task in a terminal state is UnsupportedOperationError', () => {
    const followUp = () => ({
      ...textMessage('echo again', session),
      task_id: finished.id,
      context_id: finished.contextId,
    });

    it('HTTP+JSON: message:send and message:stream answer 400 UNSUPPORTED_OPERATION', async () => {
      const sent = await rest(ctx(), 'POST', '/message:send', { message: followUp() });
      expect(sent.status).toBe(400);
      expect(reasonOf(sent.body)).toBe('UNSUPPORTED_OPERATION');
      const streamed = await readSse(ctx(), 'POST', `${restBase(ctx())}/message:stream`, { message: followUp() });
      expect(streamed.status).toBe(400);
      expect(reasonOf(streamed.body)).toBe('UNSUPPORTED_OPERATION');
    });

    it('JSON-RPC: SendMessage and SendStreamingMessage answer -32004', async () => {
      for (const method of ['SendMessage', 'SendStreamingMessage']) {
        const r = await rpc(ctx(), method, { message: followUp() });
        expect(r.error?.code).toBe(-32004);
        expect(errorInfoOf(r)?.reason).toBe('UNSUPPORTED_OPERATION');
      }
    });

    it('the task is left as it was', async () => {
      const task = await restOk<V1Task>(ctx(), 'GET', `/tasks/${finished.id}`);
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.history).toHaveLength(finished.history?.length ?? 1);
    });
  });

  describe('CORE-SEND-003: a part of an unsupported media type is ContentTypeNotSupportedError', () => {
    // The TCK's sample: raw bytes of a media type no agent takes.
    const unsupported = () => ({
      message_id: `tck-send-003-${Date.now()}`,
      role: 'ROLE_USER',
      parts: [{ raw: 'dGNr', mediaType: 'application/x-unsupported-tck-type' }],
      metadata: { session_id: session },
    });

    it('HTTP+JSON: 415 CONTENT_TYPE_NOT_SUPPORTED', async () => {
      const r = await rest(ctx(), 'POST', '/message:send', { message: unsupported() });
      expect(r.status).toBe(415);
      expect(reasonOf(r.body)).toBe('CONTENT_TYPE_NOT_SUPPORTED');
      expect(JSON.stringify(r.body)).toContain('application/x-unsupported-tck-type');
    });

    it('JSON-RPC: -32005, on SendMessage and SendStreamingMessage', async () => {
      for (const method of ['SendMessage', 'SendStreamingMessage']) {
        const r = await rpc(ctx(), method, { message: unsupported() });
        expect(r.error?.code).toBe(-32005);
        expect(errorInfoOf(r)).toMatchObject({ reason: 'CONTENT_TYPE_NOT_SUPPORTED', domain: 'a2a-protocol.org' });
      }
    });

    it('a text part that says text/plain (with parameters) still runs', async () => {
      const { task } = await restOk<{ task: V1Task }>(ctx(), 'POST', '/message:send', {
        message: {
          ...textMessage('', session),
          parts: [{ text: 'echo typed', mediaType: 'text/plain; charset=utf-8' }],
        },
      });
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(JSON.stringify(task.artifacts)).toContain('typed');
    });
  });

  it('JSON-RPC answers on the endpoint spelled with a trailing slash', async () => {
    const r = await http(ctx().server, 'POST', `${jsonRpcPath(ctx())}/`, {
      json: { jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: finished.id } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { id: finished.id } });
  });

  describe('§8.6: the AgentCard is served with caching headers', () => {
    const paths = () => [
      '/.well-known/agent-card.json',
      '/.well-known/agent.json',
      `/agents/${ctx().server.instanceId}/.well-known/agent-card.json`,
    ];

    it('Cache-Control with max-age and an ETag; If-None-Match with it is 304 without a body', async () => {
      for (const path of paths()) {
        const first = await http(ctx().server, 'GET', path, { token: null });
        expect(first.status).toBe(200);
        expect(first.headers.get('cache-control')).toMatch(/max-age=\d+/);
        expect(first.headers.get('cache-control')).not.toMatch(/no-store/);
        const etag = first.headers.get('etag');
        expect(etag).toMatch(/^"[^"]+"$/);
        for (const ifNoneMatch of [etag!, `W/${etag!}`, `"other", ${etag!}`, '*']) {
          const again = await http(ctx().server, 'GET', path, {
            token: null,
            headers: { 'if-none-match': ifNoneMatch },
          });
          expect(again.status).toBe(304);
          expect(again.text).toBe('');
          expect(again.headers.get('etag')).toBe(etag);
          expect(again.headers.get('cache-control')).toMatch(/max-age=\d+/);
        }
      }
    });

    it('Last-Modified; If-Modified-Since with it (and no If-None-Match) is 304, with an earlier date 200', async () => {
      for (const path of paths()) {
        const first = await http(ctx().server, 'GET', path, { token: null });
        const lastModified = first.headers.get('last-modified');
        expect(Number.isNaN(Date.parse(lastModified ?? ''))).toBe(false);
        const since = (date: string, extra: Record<string, string> = {}) =>
          http(ctx().server, 'GET', path, { token: null, headers: { 'if-modified-since': date, ...extra } });
        expect((await since(lastModified!)).status).toBe(304);
        expect((await since(new Date(Date.parse(lastModified!) - 60_000).toUTCString())).status).toBe(200);
        expect((await since('not a date')).status).toBe(200);
        // If-None-Match decides when both are sent.
        expect((await since(lastModified!, { 'if-none-match': '"stale"' })).status).toBe(200);
      }
    });

    it('a stale ETag gets the card; the ETag follows the content (another Host, another card)', async () => {
      const path = paths()[0]!;
      const card = await http(ctx().server, 'GET', path, { token: null, headers: { 'if-none-match': '"stale"' } });
      expect(card.status).toBe(200);
      expect(card.body).toHaveProperty('supportedInterfaces');
      const elsewhere = await http(ctx().server, 'GET', path, {
        token: null,
        headers: { host: 'card.example:443', 'if-none-match': card.headers.get('etag')! },
      });
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.headers.get('etag')).not.toBe(card.headers.get('etag'));
    });
  });
});
