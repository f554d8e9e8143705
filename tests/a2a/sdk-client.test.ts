/**
 * The official A2A JS client (@a2a-js/sdk 1.x, A2A v1.0) as a caller of both control-plane
 * bindings: given only the host, it finds them in the root AgentCard (`supportedInterfaces`), and
 * what it reads is the task pty-ws/v1 reads.
 */
import { SendMessageRequest, TaskState, type Task as SdkTask } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { Task } from '@pty-ws/protocol';
import { sdkClient, type SdkTransport } from './sdk-support';
import { newSession, nodeFetch, textMessage, useServer, wsTask } from './support';

// The SDK requires `jose` (ESM only; jest on Node 20 cannot require ESM) for AgentCard signatures,
// which this suite does not use.
jest.mock('jose', () => ({}));

/** ListTasks without filters (an unset `status` must be UNSPECIFIED: the SDK would send "UNRECOGNIZED"). */
const listAll = (pageSize: number) =>
  ({ tenant: '', pageSize, status: TaskState.TASK_STATE_UNSPECIFIED }) as Parameters<Client['listTasks']>[0];

const textOf = (t: SdkTask) =>
  t.artifacts
    .flatMap((a) => a.parts)
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');

describe.each<SdkTransport>(['JSONRPC', 'HTTP+JSON'])('the @a2a-js/sdk client over %s', (transport) => {
  const ctx = useServer({ authEnabled: true });
  let session = '';
  let client: Client;
  const urls: string[] = [];

  const request = (text: string, extra: Record<string, unknown> = {}) =>
    SendMessageRequest.fromJSON({ message: textMessage(text, session), ...extra });

  beforeAll(async () => {
    session = await newSession(ctx());
    const base = nodeFetch(ctx().server.adminToken);
    const fetchImpl: typeof fetch = (input, init) => {
      urls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      return base(input, init);
    };
    // Discovery from the bare host, as a user would point the SDK at it: the root AgentCard
    // (/.well-known/agent-card.json) leads to the per-instance endpoints.
    client = await sdkClient(ctx().server.httpUrl, fetchImpl, transport);
  });

  it('finds the binding in the AgentCard and calls its endpoint', async () => {
    expect(client.protocolVersion).toBe('1.0');
    expect(new URL(urls[0]!).pathname).toBe('/.well-known/agent-card.json');
    urls.length = 0;
    await client.listTasks(listAll(1));
    const path = new URL(urls[0]!).pathname;
    const instance = ctx().server.instanceId;
    expect(path).toBe(transport === 'JSONRPC' ? `/agents/${instance}/a2a/jsonrpc` : `/agents/${instance}/a2a/v1/tasks`);
  });

  it('sendMessage runs the task; getTask and pty-ws/v1 agree on it', async () => {
    const result = await client.sendMessage(request('echo from-sdk'));
    if (!('status' in result)) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
    const task = result as SdkTask;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(task)).toContain('from-sdk');

    const again = await client.getTask({ tenant: '', id: task.id });
    expect(again.id).toBe(task.id);
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const ws = await ctx().attach(session);
    const viaWs: Task = await wsTask(ws, task.id);
    expect(viaWs.context_id).toBe(again.contextId);
    expect(viaWs.status.state).toBe('COMPLETED');
    expect(viaWs.status.timestamp).toBe(again.status?.timestamp);
    expect(viaWs.artifacts?.[0]?.artifact_id).toBe(again.artifacts[0]?.artifactId);
  });

  it('listTasks lists it; cancelTask cancels a running one', async () => {
    const started = (await client.sendMessage(
      request('sleep 30', { configuration: { returnImmediately: true } }),
    )) as SdkTask;
    const list = await client.listTasks(listAll(100));
    expect(list.tasks.map((t) => t.id)).toContain(started.id);
    const canceled = await client.cancelTask({ tenant: '', id: started.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('sendMessageStream yields the task, its updates, the output as it came and the whole artifact', async () => {
    const cases: string[] = [];
    let streamed = '';
    let output = '';
    for await (const event of client.sendMessageStream(request('echo sdk-stream'))) {
      const p = event.payload;
      if (!p) continue;
      cases.push(p.$case);
      if (p.$case === 'artifactUpdate') {
        const text = p.value.artifact?.parts.map((x) => (x.content?.$case === 'text' ? x.content.value : '')).join('');
        // Chunks append while the task runs; the last chunk is the whole artifact.
        if (p.value.append) streamed += text;
        else output = text ?? '';
        if (!p.value.append) expect(p.value.lastChunk).toBe(true);
      }
      if (p.$case === 'statusUpdate') expect(p.value.status?.state).not.toBe(-1);
    }
    expect(cases).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(streamed).toBe('sdk-stream\n');
    expect(output).toBe('sdk-stream\n');
  });

  it('a prompt in a live shell: INPUT_REQUIRED with the prompt, answered by a message to the task', async () => {
    const live = await ctx().createSession({
      argv: ['/bin/bash', '--norc', '--noprofile'],
      env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      cols: 80,
      rows: 24,
      task_executor: 'live_shell',
    });
    const asked = (await client.sendMessage(
      SendMessageRequest.fromJSON({ message: textMessage('read -p "name? " n; echo hi $n', live.session_id) }),
    )) as SdkTask;
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const promptText = (asked.status?.message?.parts ?? [])
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join('');
    expect(promptText).toContain('name?');
    const answered = (await client.sendMessage(
      SendMessageRequest.fromJSON({
        message: { ...textMessage('bob', live.session_id), taskId: asked.id, contextId: asked.contextId },
      }),
    )) as SdkTask;
    expect(answered.id).toBe(asked.id);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(answered)).toContain('hi bob');

    // A secret typed with the terminal's echo off stays out of the artifact and the history.
    const secret = (await client.sendMessage(
      SendMessageRequest.fromJSON({
        message: textMessage('read -s -p "password? " p; echo; echo got ${#p} chars', live.session_id),
      }),
    )) as SdkTask;
    expect(secret.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const typed = (await client.sendMessage(
      SendMessageRequest.fromJSON({ message: { ...textMessage('hunter2', live.session_id), taskId: secret.id } }),
    )) as SdkTask;
    expect(typed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(typed)).toContain('got 7 chars');
    expect(JSON.stringify(typed)).not.toContain('hunter2');
  });

  it('push notification configs round-trip', async () => {
    const task = (await client.sendMessage(request('echo push'))) as SdkTask;
    const created = await client.createTaskPushNotificationConfig({
      tenant: '',
      id: 'sdk-cfg',
      taskId: task.id,
      url: 'http://127.0.0.1:9/hook',
      token: 'tok',
      authentication: undefined,
    });
    expect(created).toMatchObject({ id: 'sdk-cfg', taskId: task.id, url: 'http://127.0.0.1:9/hook' });
    // The notification token is write-only: never returned.
    expect(created.token ?? '').toBe('');
    const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'sdk-cfg' });
    expect(got.url).toBe('http://127.0.0.1:9/hook');
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'sdk-cfg' });
    const list = await client.listTaskPushNotificationConfig({
      tenant: '',
      taskId: task.id,
      pageSize: 10,
      pageToken: '',
    });
    expect(list.configs).toEqual([]);
  });

  it('errors arrive as the SDK error classes', async () => {
    await expect(client.getTask({ tenant: '', id: '0190aaaa-0000-7000-8000-00000000000a' })).rejects.toMatchObject({
      name: 'TaskNotFoundError',
    });
  });
});
