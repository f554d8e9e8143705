/**
 * SendStreamingMessage and SubscribeToTask as Server-Sent Events on HTTP+JSON and JSON-RPC: the
 * task first, then its status updates (the final one's artifacts before it), ending the stream.
 * Events are A2A v1.0 StreamResponses (`task`, `statusUpdate`, `artifactUpdate`).
 */
import {
  asV1,
  awaitState,
  gated,
  jsonRpcPath,
  newSession,
  openSse,
  readSse,
  restBase,
  restOk,
  textMessage,
  useServer,
  wsTask,
  type SseEvent,
  type V1Task,
} from './support';

interface V1StatusUpdate {
  taskId: string;
  contextId: string;
  status: V1Task['status'];
}
type StreamEvent = { task: V1Task } | { statusUpdate: V1StatusUpdate } | { artifactUpdate: Record<string, unknown> };

const kindOf = (e: StreamEvent) => Object.keys(e)[0];
/** The state without its TASK_STATE_ prefix (asserted present), for short expectations. */
const stateOf = (e: StreamEvent): string | undefined => {
  const state = 'task' in e ? e.task.status.state : 'statusUpdate' in e ? e.statusUpdate.status.state : undefined;
  if (state === undefined) return undefined;
  expect(state).toMatch(/^TASK_STATE_/);
  return state.replace(/^TASK_STATE_/, '');
};

/** The StreamResponse of a JSON-RPC SSE event (asserting the envelope). */
function rpcResult(e: SseEvent, id: string): StreamEvent {
  const d = e.data as { jsonrpc: string; id: string; result: StreamEvent };
  expect(d.jsonrpc).toBe('2.0');
  expect(d.id).toBe(id);
  return d.result;
}

describe('A2A streaming over SSE', () => {
  const ctx = useServer();
  let session = '';

  beforeAll(async () => {
    session = await newSession(ctx());
  });

  it('POST /message:stream: task SUBMITTED, WORKING, the output as it came, the whole artifact, COMPLETED', async () => {
    const s = await readSse(ctx(), 'POST', `${restBase(ctx())}/message:stream`, {
      message: textMessage('echo streamed-out', session),
    });
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/event-stream/);
    const events = s.events.map((e) => e.data as StreamEvent);
    expect(events.map(kindOf)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(events.map(stateOf)).toEqual(['SUBMITTED', 'WORKING', undefined, undefined, 'COMPLETED']);
    const first = events[0] as { task: V1Task };
    const last = events[4] as { statusUpdate: V1StatusUpdate };
    expect(last.statusUpdate.taskId).toBe(first.task.id);
    expect(last.statusUpdate.contextId).toBe(first.task.contextId);
    // A2A v1.0 dropped `final` (the state says it); only pty-ws/v1 frames carry it.
    expect('final' in last.statusUpdate).toBe(false);
    // A chunk appended while it ran, then the whole artifact (same id) replacing it as the last chunk.
    expect(events[2]).toMatchObject({ artifactUpdate: { taskId: first.task.id, append: true } });
    expect(JSON.stringify(events[2])).toContain('streamed-out');
    expect(JSON.stringify(events[3])).toContain('streamed-out');
    expect(events[3]).toMatchObject({ artifactUpdate: { taskId: first.task.id, lastChunk: true } });
    const idOf = (e: StreamEvent | undefined) =>
      (e as { artifactUpdate: { artifact: { artifactId: string } } }).artifactUpdate.artifact.artifactId;
    expect(idOf(events[2])).toBe(idOf(events[3]));
    // The stored task is what the stream said it became.
    const stored = await restOk<V1Task>(ctx(), 'GET', `/tasks/${first.task.id}`);
    expect(stored.status).toEqual(last.statusUpdate.status);
  });

  it('JSON-RPC SendStreamingMessage: the same events, each a JSON-RPC response with the request id', async () => {
    const s = await readSse(ctx(), 'POST', jsonRpcPath(ctx()), {
      jsonrpc: '2.0',
      id: 'stream-1',
      method: 'SendStreamingMessage',
      params: { message: textMessage('echo rpc-streamed', session) },
    });
    expect(s.contentType).toMatch(/^text\/event-stream/);
    const events = s.events.map((e) => rpcResult(e, 'stream-1'));
    expect(events.map(kindOf)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(stateOf(events[4]!)).toBe('COMPLETED');
  });

  it('the JSON is the same with or without A2A-Version: 1.0 (one A2A v1.0 spelling)', async () => {
    const withHeader = await readSse(
      ctx(),
      'POST',
      `${restBase(ctx())}/message:stream`,
      { message: textMessage('echo v1', session) },
      { headers: { 'A2A-Version': '1.0' } },
    );
    const events = withHeader.events.map((e) => e.data as StreamEvent);
    expect(events.map(stateOf)).toEqual(['SUBMITTED', 'WORKING', undefined, undefined, 'COMPLETED']);
    expect(JSON.stringify(events)).not.toMatch(/"(task_id|context_id|status_update|artifact_update|final)"/);
  });

  it('POST /tasks/{id}:subscribe follows a running task from its current state to the end', async () => {
    const gate = gated('subscribed-out');
    const { task } = await restOk<{ task: V1Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage(gate.command, session),
      configuration: { returnImmediately: true },
    });
    await awaitState(ctx(), task.id, ['WORKING']);
    const s = await openSse(ctx(), 'POST', `${restBase(ctx())}/tasks/${task.id}:subscribe`, undefined);
    await s.waitFor(() => true);
    await gate.open();
    await s.done;
    const events = s.events.map((e) => e.data as StreamEvent);
    expect(events.map(kindOf)).toEqual(['task', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(stateOf(events[0]!)).toBe('WORKING');
    expect(stateOf(events[3]!)).toBe('COMPLETED');
    expect(JSON.stringify(events[1])).toContain('subscribed-out');
  });

  it('output streams while the task runs: append chunks before the end, then the whole artifact', async () => {
    const gate = gated('late-line');
    const s = await openSse(ctx(), 'POST', `${restBase(ctx())}/message:stream`, {
      message: textMessage(`echo early-line; ${gate.command}`, session),
    });
    const early = await s.waitFor((e) => 'artifactUpdate' in (e.data as StreamEvent));
    expect(early.data).toMatchObject({ artifactUpdate: { append: true } });
    expect(JSON.stringify(early.data)).toContain('early-line');
    // The command cannot end before the gate opens: the chunk came while the task was running.
    expect(s.events.map((e) => stateOf(e.data as StreamEvent))).not.toContain('COMPLETED');
    await gate.open();
    await s.done;
    const events = s.events.map((e) => e.data as StreamEvent);
    expect(events.map(kindOf).slice(-2)).toEqual(['artifactUpdate', 'statusUpdate']);
    expect(events.at(-2)).toMatchObject({ artifactUpdate: { lastChunk: true } });
    expect(JSON.stringify(events.at(-2))).toMatch(/early-line\\nlate-line/);
  });

  it('JSON-RPC SendStreamingMessage streams the lines of a slow loop as they come, in order', async () => {
    const s = await openSse(ctx(), 'POST', jsonRpcPath(ctx()), {
      jsonrpc: '2.0',
      id: 'loop',
      method: 'SendStreamingMessage',
      params: { message: textMessage('for i in 1 2 3 4 5 6; do echo loop-$i; sleep 0.5; done', session) },
    });
    await s.done;
    const events = s.events.map((e) => rpcResult(e, 'loop'));
    const chunks = events.flatMap((e) =>
      'artifactUpdate' in e && e.artifactUpdate['append'] === true ? [JSON.stringify(e.artifactUpdate)] : [],
    );
    // Several chunks, each before the end, that together are the lines in order.
    expect(chunks.length).toBeGreaterThan(1);
    const lastChunkAt = events.findIndex((e) => 'artifactUpdate' in e && e.artifactUpdate['lastChunk'] === true);
    const appendsAt = events.flatMap((e, i) =>
      'artifactUpdate' in e && e.artifactUpdate['append'] === true ? [i] : [],
    );
    expect(Math.max(...appendsAt)).toBeLessThan(lastChunkAt);
    const text = chunks.map(
      (c) => (JSON.parse(c) as { artifact: { parts: { text: string }[] } }).artifact.parts[0]!.text,
    );
    expect(text.join('')).toBe('loop-1\nloop-2\nloop-3\nloop-4\nloop-5\nloop-6\n');
  });

  it('over pty-ws/v1, a task subscriber gets TaskArtifactUpdate frames while the task runs', async () => {
    const gate = gated('ws-late');
    const ws = await ctx().attach(session);
    const accepted = await ws.request('SendStreamingMessage', {
      message: textMessage(`echo ws-early; ${gate.command}`),
    });
    const taskId = (accepted.payload as { task_id: string }).task_id;
    const chunk = await ws.waitFor((r) => r.type === 'json' && r.frame.op === 'TaskArtifactUpdate', 8000);
    expect(JSON.stringify(chunk.type === 'json' && chunk.frame.payload)).toContain('ws-early');
    expect(chunk.type === 'json' && chunk.frame.payload).toMatchObject({
      artifact_update: { task_id: taskId, append: true },
    });
    expect((await wsTask(ws, taskId)).status.state).toBe('WORKING');
    await gate.open();
    await awaitState(ctx(), taskId, ['COMPLETED']);
  });

  it('JSON-RPC SubscribeToTask and a REST subscriber both see a cancel made over REST', async () => {
    const { task } = await restOk<{ task: V1Task }>(ctx(), 'POST', '/message:send', {
      message: textMessage('sleep 30', session),
      configuration: { returnImmediately: true },
    });
    await awaitState(ctx(), task.id, ['WORKING']);
    const viaRpc = await openSse(ctx(), 'POST', jsonRpcPath(ctx()), {
      jsonrpc: '2.0',
      id: 7,
      method: 'SubscribeToTask',
      params: { id: task.id },
    });
    const viaRest = await openSse(ctx(), 'GET', `${restBase(ctx())}/tasks/${task.id}:subscribe`, undefined);
    await viaRpc.waitFor(() => true);
    await viaRest.waitFor(() => true);
    await restOk<V1Task>(ctx(), 'POST', `/tasks/${task.id}:cancel`);
    await Promise.all([viaRpc.done, viaRest.done]);
    const rpcEvents = viaRpc.events.map((e) => rpcResult(e, 7 as unknown as string));
    expect(rpcEvents.map(stateOf)).toEqual(['WORKING', 'CANCELED']);
    expect(viaRest.events.map((e) => stateOf(e.data as StreamEvent))).toEqual(['WORKING', 'CANCELED']);
  });

  it('a stream that cannot start is a plain JSON error with its status, not an event stream', async () => {
    const s = await readSse(
      ctx(),
      'POST',
      `${restBase(ctx())}/tasks/0190aaaa-0000-7000-8000-000000000001:subscribe`,
      undefined,
    );
    expect(s.status).toBe(404);
    expect(s.contentType).toMatch(/application\/json/);
    expect(JSON.stringify(s.body)).toContain('TASK_NOT_FOUND');
    // A caller that may not create sessions (no pty:admin) must name one.
    const controller = (await ctx().mintToken({ scopes: ['pty:control'] })).token;
    const noSession = await readSse(
      ctx(),
      'POST',
      `${restBase(ctx())}/message:stream`,
      { message: textMessage('echo where') },
      { token: controller },
    );
    expect(noSession.status).toBe(400);
    expect(JSON.stringify(noSession.body)).toContain('session_id');
  });

  it('a streamed task reads the same over pty-ws/v1', async () => {
    const s = await readSse(ctx(), 'POST', `${restBase(ctx())}/message:stream`, {
      message: textMessage('echo cross', session),
    });
    const id = (s.events[0]!.data as { task: V1Task }).task.id;
    const ws = await ctx().attach(session);
    expect(asV1(await wsTask(ws, id))).toEqual(await restOk<V1Task>(ctx(), 'GET', `/tasks/${id}`));
  });
});
