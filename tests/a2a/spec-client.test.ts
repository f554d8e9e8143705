/**
 * pty-ws driven by an independent A2A v1.0 client (tests/a2a/spec-client, written from the
 * specification text: plain fetch, its own SSE reader and types) over both HTTP bindings: discovery
 * from the bare host, every core method, streaming, push config CRUD, the extended card and the
 * error codes. The server side of the set-up (a session to run tasks in) uses the test support.
 */
import { randomUUID } from 'node:crypto';
import { A2aClientError, connect, discover, rawJsonRpc, type A2aBinding } from './spec-client/client';
import {
  HTTP_STATUS,
  JSONRPC_CODES,
  TERMINAL_STATES,
  type A2aErrorName,
  type AgentCard,
  type Message,
  type StreamResponse,
  type Task,
} from './spec-client/types';
import { gated, newSession, nodeFetch, useServer } from './support';

type Binding = 'JSONRPC' | 'HTTP+JSON';

/** Every key below `value` (not inside free-form Struct data) is lowerCamelCase (§5.5). */
function expectCamelCase(value: unknown, at = '$'): void {
  if (Array.isArray(value)) return value.forEach((v, i) => expectCamelCase(v, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    if (!/^[a-z][A-Za-z0-9]*$/.test(k) && k !== '@type') throw new Error(`${at}.${k} is not lowerCamelCase`);
    if (k !== 'metadata' && k !== 'params' && k !== 'data') expectCamelCase(v, `${at}.${k}`);
  }
}

function expectTask(t: Task): void {
  expect(typeof t.id).toBe('string');
  expect(typeof t.contextId).toBe('string');
  expect(t.status.state).toMatch(/^TASK_STATE_[A-Z_]+$/);
  expectCamelCase(t);
}

const textOf = (t: Task) =>
  (t.artifacts ?? [])
    .flatMap((a) => a.parts)
    .map((p) => p.text ?? '')
    .join('');

async function collect(events: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const e of events) {
    // §3.2.3: exactly one of task, message, statusUpdate, artifactUpdate.
    expect(Object.keys(e)).toHaveLength(1);
    expect(['task', 'message', 'statusUpdate', 'artifactUpdate']).toContain(Object.keys(e)[0]);
    expectCamelCase(e);
    out.push(e);
  }
  return out;
}

async function expectA2aError(call: Promise<unknown>, name: A2aErrorName, binding: Binding): Promise<void> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(A2aClientError);
  const e = err as A2aClientError;
  expect(e.errorName).toBe(name);
  if (binding === 'JSONRPC') expect(e.code).toBe(JSONRPC_CODES[name]);
  else expect(e.httpStatus).toBe(HTTP_STATUS[name]);
}

describe.each<Binding>(['JSONRPC', 'HTTP+JSON'])('an A2A v1.0 client written from the spec, over %s', (binding) => {
  const ctx = useServer({ authEnabled: true });
  let session = '';
  let card: AgentCard;
  let client: A2aBinding;
  const fetchFn = () => nodeFetch(undefined);

  const message = (text: string, extra: Partial<Message> = {}): Message => ({
    messageId: randomUUID(),
    role: 'ROLE_USER',
    parts: [{ text }],
    // pty-ws runs a message in the session its metadata names (the card's notes say so).
    metadata: { session_id: session },
    ...extra,
  });

  beforeAll(async () => {
    session = await newSession(ctx());
    card = await discover(ctx().server.httpUrl, { fetch: fetchFn() });
    client = connect(card, binding, { fetch: fetchFn(), token: ctx().server.adminToken });
  });

  it('discovers the agent from the bare host and reaches it through the advertised interface', () => {
    // Fields the spec does not define may be there (§5.7: ignore them); the A2A ones are camelCase.
    const known = new Set(['name', 'description', 'supportedInterfaces', 'provider', 'version', 'documentationUrl']);
    for (const k of ['capabilities', 'securitySchemes', 'securityRequirements', 'defaultInputModes']) known.add(k);
    for (const k of ['defaultOutputModes', 'skills', 'signatures', 'iconUrl']) known.add(k);
    expectCamelCase(Object.fromEntries(Object.entries(card).filter(([k]) => known.has(k))));
    expect(card.supportedInterfaces.map((i) => i.protocolBinding)).toEqual(expect.arrayContaining([binding]));
    expect(client.url).toMatch(/^http:\/\/.+\/agents\/.+/);
    // §4.5: the card says how to authenticate; the bearer scheme is required here.
    expect(Object.values(card.securitySchemes ?? {}).some((s) => 'httpAuthSecurityScheme' in s)).toBe(true);
    expect(card.securityRequirements?.length).toBeGreaterThan(0);
  });

  it('refuses a caller without credentials', async () => {
    const anonymous = connect(card, binding, { fetch: fetchFn() });
    const err = (await anonymous.listTasks({}).catch((e: unknown) => e)) as A2aClientError;
    expect(err).toBeInstanceOf(A2aClientError);
    expect(err.httpStatus).toBe(401);
  });

  it('SendMessage runs a task to completion; GetTask and ListTasks read it', async () => {
    const res = await client.sendMessage({ message: message('echo spec-client-out') });
    if (!('task' in res)) throw new Error(`expected a task: ${JSON.stringify(res)}`);
    expectTask(res.task);
    expect(res.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOf(res.task)).toContain('spec-client-out');

    const got = await client.getTask(res.task.id);
    expect(got).toEqual(res.task);
    const trimmed = await client.getTask(res.task.id, 0);
    expect(trimmed.history ?? []).toEqual([]);

    const list = await client.listTasks({ pageSize: 50 });
    expect(typeof list.nextPageToken).toBe('string'); // §3.1.4: always present
    expect(Number.isInteger(list.pageSize)).toBe(true);
    expect(Number.isInteger(list.totalSize)).toBe(true);
    list.tasks.forEach(expectTask);
    expect(list.tasks.map((t) => t.id)).toContain(res.task.id);
    const done = await client.listTasks({ status: 'TASK_STATE_COMPLETED', contextId: res.task.contextId });
    expect(done.tasks.map((t) => t.id)).toEqual([res.task.id]);
  });

  it('SendStreamingMessage: the Task first, then updates, ending in a terminal status', async () => {
    const events = await collect(client.sendStreamingMessage({ message: message('echo spec-stream') }));
    const first = events[0]!;
    if (!('task' in first)) throw new Error('the stream must begin with the Task (§3.1.2)');
    expectTask(first.task);
    const last = events[events.length - 1]!;
    if (!('statusUpdate' in last)) throw new Error('the stream must end with a status update');
    expect(TERMINAL_STATES).toContain(last.statusUpdate.status.state);
    expect(last.statusUpdate.taskId).toBe(first.task.id);
    expect(last.statusUpdate.contextId).toBe(first.task.contextId);
    const artifacts = events.flatMap((e) => ('artifactUpdate' in e ? [e.artifactUpdate] : []));
    expect(artifacts.map((a) => a.artifact.parts.map((p) => p.text).join('')).join('')).toContain('spec-stream');
  });

  it('SubscribeToTask follows a running task to its end', async () => {
    const gate = gated('spec-subscribed');
    const res = await client.sendMessage({
      message: message(gate.command),
      configuration: { returnImmediately: true },
    });
    if (!('task' in res)) throw new Error('expected a task');
    const events: StreamResponse[] = [];
    const done = (async () => {
      for await (const e of client.subscribeToTask(res.task.id)) {
        events.push(e);
        if (events.length === 1) await gate.open(); // subscribed: let the task finish
      }
    })();
    await done;
    expect(Object.keys(events[0]!)).toEqual(['task']);
    const last = events[events.length - 1]!;
    expect('statusUpdate' in last && last.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('CancelTask cancels a running task; a second cancel is TaskNotCancelableError', async () => {
    const res = await client.sendMessage({ message: message('sleep 30'), configuration: { returnImmediately: true } });
    if (!('task' in res)) throw new Error('expected a task');
    const canceled = await client.cancelTask(res.task.id);
    expectTask(canceled);
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await expectA2aError(client.cancelTask(res.task.id), 'TaskNotCancelableError', binding);
  });

  it('push notification config CRUD, as the card advertises', async () => {
    expect(card.capabilities.pushNotifications).toBe(true);
    const res = await client.sendMessage({ message: message('echo push-crud') });
    if (!('task' in res)) throw new Error('expected a task');
    const created = await client.createPushConfig({
      taskId: res.task.id,
      id: 'spec-cfg',
      url: 'http://127.0.0.1:9/hook',
      token: 'spec-token',
    });
    expectCamelCase(created);
    expect(created).toMatchObject({ taskId: res.task.id, id: 'spec-cfg', url: 'http://127.0.0.1:9/hook' });
    expect(await client.getPushConfig(res.task.id, 'spec-cfg')).toEqual(created);
    expect((await client.listPushConfigs(res.task.id)).configs).toEqual([created]);
    await client.deletePushConfig(res.task.id, 'spec-cfg');
    expect((await client.listPushConfigs(res.task.id)).configs ?? []).toEqual([]);
  });

  it('GetExtendedAgentCard: not configured, as the card says', async () => {
    expect(card.capabilities.extendedAgentCard ?? false).toBe(false);
    await expectA2aError(client.getExtendedAgentCard(), 'ExtendedAgentCardNotConfiguredError', binding);
  });

  it('errors: TaskNotFoundError, VersionNotSupportedError, invalid params', async () => {
    await expectA2aError(client.getTask(randomUUID()), 'TaskNotFoundError', binding);
    const future = connect(card, binding, {
      fetch: fetchFn(),
      token: ctx().server.adminToken,
      headers: { 'A2A-Version': '9.9' },
    });
    await expectA2aError(future.listTasks({}), 'VersionNotSupportedError', binding);
    const bad = await client.listTasks({ pageSize: 100_000 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(A2aClientError);
    if (binding === 'JSONRPC') expect((bad as A2aClientError).code).toBe(JSONRPC_CODES.InvalidParamsError);
    else expect((bad as A2aClientError).httpStatus).toBe(400);
  });

  if (binding === 'JSONRPC') {
    it('JSON-RPC 2.0 protocol errors carry their integer codes (§9.5)', async () => {
      const raw = rawJsonRpc(client)!;
      const codeOf = async (body: string) => ((await raw(body)) as { error?: { code?: unknown } }).error?.code;
      expect(await codeOf('{"jsonrpc":"2.0","id":1,"method":')).toBe(JSONRPC_CODES.JSONParseError);
      expect(await codeOf('{"id":1,"method":"GetTask"}')).toBe(JSONRPC_CODES.InvalidRequestError);
      expect(await codeOf('{"jsonrpc":"2.0","id":1,"method":"NoSuchMethod","params":{}}')).toBe(
        JSONRPC_CODES.MethodNotFoundError,
      );
      expect(await codeOf('{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":7}}')).toBe(
        JSONRPC_CODES.InvalidParamsError,
      );
    });
  }
});
