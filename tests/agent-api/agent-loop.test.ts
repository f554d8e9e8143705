/**
 * The loop an AI agent drives, through the official A2A client (@a2a-js/sdk) only, given a token
 * and the host and nothing else — no session created beforehand: the first message gets a session
 * for its context. Run a command and read its exit code and output; answer a prompt; watch a slow
 * command's output arrive while it runs; read a full-screen program's screen as text and wait for
 * a pattern (REST `/screen` and `/wait`: A2A has no verb for either). Both modes.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SendMessageRequest, TaskState, type Task as SdkTask } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { newId } from '@pty-ws/protocol';
import type { SessionScreen } from '@pty-ws/ports';
import { TestContext, http } from '@pty-ws/testkit';
import { sdkClient } from '../a2a/sdk-support';
import { nodeFetch } from '../a2a/support';

// The SDK requires `jose` (ESM only; jest on Node 20 cannot require ESM) for AgentCard signatures,
// which this suite does not use.
jest.mock('jose', () => ({}));

/** vim, or the vi there is. */
const VIM = ['vim', 'vi', 'nvim'].find((v) =>
  (process.env['PATH'] ?? '').split(':').some((d) => statSync(path.join(d, v), { throwIfNoEntry: false })?.isFile()),
);

const text = (parts: { content?: { $case: string; value?: unknown } }[] | undefined) =>
  (parts ?? []).map((p) => (p.content?.$case === 'text' ? String(p.content.value) : '')).join('');
const outputOf = (t: SdkTask) => t.artifacts.map((a) => text(a.parts)).join('');

describe('an agent loop through @a2a-js/sdk, with no session created beforehand', () => {
  let ctx: TestContext;
  let client: Client;
  let token = '';
  let dir = '';
  let contextId = '';

  /** A message in the loop's context (the first one starts it). */
  const say = (words: string, extra: Record<string, unknown> = {}, message: Record<string, unknown> = {}) =>
    SendMessageRequest.fromJSON({
      message: {
        messageId: newId(),
        role: 'ROLE_USER',
        parts: [{ text: words }],
        ...(contextId ? { contextId } : {}),
        ...message,
      },
      ...extra,
    });
  const send = async (words: string, extra: Record<string, unknown> = {}, message: Record<string, unknown> = {}) => {
    const result = await client.sendMessage(say(words, extra, message));
    if (!('status' in result)) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
    const task = result as SdkTask;
    contextId ||= task.contextId;
    return task;
  };
  const rest = async <T>(url: string): Promise<T> => {
    const r = await http(ctx.server, 'GET', url, { token });
    if (r.status !== 200) throw new Error(`GET ${url} → ${r.status} ${r.text.slice(0, 300)}`);
    return r.body as T;
  };

  beforeAll(async () => {
    ctx = await TestContext.start();
    dir = mkdtempSync(path.join(tmpdir(), 'ptyws-agent-loop-'));
    writeFileSync(path.join(dir, 'notes.txt'), 'remember the milk\n');
    // A token as an operator hands one to an agent: one that may create sessions.
    token = (await ctx.mintToken({ scopes: ['pty:admin'], label: 'agent' })).token;
    client = await sdkClient(ctx.server.httpUrl, nodeFetch(token));
  });
  afterAll(async () => {
    await ctx?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs `cd /tmp && ls`: exit code and output; the shell keeps its directory', async () => {
    const tmp = await send(`cd ${path.dirname(dir)} && ls`);
    expect(tmp.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(tmp.metadata).toMatchObject({ exit_code: 0 });
    // ls on a terminal prints columns.
    expect(outputOf(tmp).split(/\s+/)).toContain(path.basename(dir));
    expect(contextId).toMatch(/\S/);

    const listed = await send(`cd ${path.basename(dir)} && ls`);
    expect(listed.metadata).toMatchObject({ exit_code: 0 });
    expect(outputOf(listed)).toBe('notes.txt\n');

    const cwd = await send('pwd');
    expect(outputOf(cwd)).toBe(`${dir}\n`);
    const failed = await send('ls no-such-file');
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(failed.metadata).toMatchObject({ exit_code: 2 });
    expect(outputOf(failed)).toContain('no-such-file');
  });

  it('answers a prompt: INPUT_REQUIRED with the prompt, then a message to the task', async () => {
    const asked = await send('read -p "name? " n; echo hi $n');
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(text(asked.status?.message?.parts)).toContain('name?');
    const answered = await send('agent', {}, { taskId: asked.id });
    expect(answered.id).toBe(asked.id);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(outputOf(answered)).toContain('hi agent');

    // Answered by a streaming message: the stream follows the task to its end.
    const again = await send('read -p "age? " a; echo age $a');
    expect(again.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const states: string[] = [];
    let streamed = '';
    for await (const event of client.sendMessageStream(say('42', {}, { taskId: again.id }))) {
      const p = event.payload;
      if (p?.$case === 'statusUpdate') states.push(TaskState[p.value.status?.state ?? 0]);
      if (p?.$case === 'artifactUpdate' && p.value.append) streamed += text(p.value.artifact?.parts);
    }
    expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
    expect(streamed).toContain('age 42');
  });

  it('streams a slow loop: its lines arrive before the task ends', async () => {
    const events: string[] = [];
    for await (const event of client.sendMessageStream(say('for i in 1 2 3; do echo line$i; sleep 1; done'))) {
      const p = event.payload;
      if (p?.$case === 'artifactUpdate' && p.value.append) events.push(`out:${text(p.value.artifact?.parts)}`);
      if (p?.$case === 'statusUpdate') events.push(`state:${TaskState[p.value.status?.state ?? 0]}`);
    }
    const end = events.indexOf('state:TASK_STATE_COMPLETED');
    expect(end).toBe(events.length - 1);
    const streamed = events.slice(0, end).filter((e) => e.startsWith('out:'));
    // Output came in more than one piece, all of it before the task ended.
    expect(streamed.length).toBeGreaterThan(1);
    expect(streamed.join('').replace(/out:/g, '')).toBe('line1\nline2\nline3\n');
  });

  it("reads a full-screen program's screen as text, after waiting for a pattern", async () => {
    if (!VIM) throw new Error('this test needs vim or vi on PATH');
    const first = await client.getTask({ tenant: '', id: (await send('true')).id, historyLength: 1 });
    const sessionId = first.history[0]?.metadata?.['session_id'];
    expect(typeof sessionId).toBe('string');
    const from = (await rest<{ replay: { last_sequence: number } }>(`/api/v1/sessions/${sessionId}`)).replay
      .last_sequence;
    // vim waits in select(), not read(): the task stays WORKING. It quits once the gate exists.
    const gate = path.join(dir, 'gate');
    const quit = `call timer_start(100, {-> filereadable('${gate}') ? execute('qa!') : 0}, {'repeat': -1})`;
    const started = await send(`${VIM} -u NONE -N -n -c "${quit}" notes.txt`, {
      configuration: { returnImmediately: true },
    });
    expect(started.status?.state).toBe(TaskState.TASK_STATE_WORKING);

    const waited = await rest<{ matched: boolean; match: { text: string } | null }>(
      `/api/v1/sessions/${sessionId}/wait?pattern=${encodeURIComponent('remember the milk')}&from_seq=${from}&timeout_ms=15000`,
    );
    expect(waited.matched).toBe(true);
    const screen = await rest<SessionScreen>(`/api/v1/sessions/${sessionId}/screen`);
    expect(screen.alt_screen).toBe(true);
    expect(screen.lines[0]).toBe('remember the milk');
    expect(screen.lines[1]).toMatch(/^~/);
    expect(screen.lines.join('\n')).toContain('notes.txt');

    writeFileSync(gate, '');
    let done = started;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
      done = await client.getTask({ tenant: '', id: started.id, historyLength: 0 });
      if (done.status?.state === TaskState.TASK_STATE_COMPLETED) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await rest<SessionScreen>(`/api/v1/sessions/${sessionId}/screen`)).alt_screen).toBe(false);
  });
});
