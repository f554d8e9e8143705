/**
 * Messages to an existing task over the WebSocket binding answer as the other bindings do: a task
 * in a terminal state takes none (UNSUPPORTED_OPERATION, A2A UnsupportedOperationError), and a
 * task waiting for input (INPUT_REQUIRED) takes its answer, typed into the command.
 */
import type { Message, Task } from '@pty-ws/protocol';
import { is, taskUpdateOf } from '@pty-ws/testkit';
import { expectBindingError, payloadOf, useServer, userMessage } from './support';

const liveShell = {
  argv: ['/bin/bash', '--norc', '--noprofile'],
  env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  cols: 80,
  rows: 24,
  task_executor: 'live_shell',
};

const toTask = (text: string, taskId: string): Message => ({ ...userMessage(text), task_id: taskId });
const outputOf = (t: Task) => (t.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('');

describe('pty-ws/v1: messages to an existing task', () => {
  const ctx = useServer();

  it('a message to a task in a terminal state is UNSUPPORTED_OPERATION, as on JSON-RPC, REST and gRPC', async () => {
    const session = (await ctx().createSession(liveShell)).session_id;
    const c = await ctx().attach(session);
    const done = payloadOf<{ task: Task }>(
      await c.request('SendMessage', { message: userMessage('echo done') }, {}, 15000),
    ).task;
    expect(done.status.state).toBe('COMPLETED');
    for (const op of ['SendMessage', 'SendStreamingMessage']) {
      const err = expectBindingError(
        await c.request(op, { message: toTask('echo again', done.id) }),
        'UNSUPPORTED_OPERATION',
      );
      expect(err.message).toContain('COMPLETED');
    }
  });

  it('a message to a task in INPUT_REQUIRED is typed into its command (SendMessage)', async () => {
    const session = (await ctx().createSession(liveShell)).session_id;
    const c = await ctx().attach(session);
    const asked = payloadOf<{ task: Task }>(
      await c.request('SendMessage', { message: userMessage('read -p "name? " n; echo hi $n') }, {}, 15000),
    ).task;
    expect(asked.status.state).toBe('INPUT_REQUIRED');
    expect(asked.status.message?.parts.map((p) => p.text).join('')).toContain('name?');
    const answered = payloadOf<{ task: Task }>(
      await c.request('SendMessage', { message: toTask('ws', asked.id) }, {}, 15000),
    ).task;
    expect(answered.id).toBe(asked.id);
    expect(answered.status.state).toBe('COMPLETED');
    expect(outputOf(answered)).toContain('hi ws');
  });

  it('a message to a task in INPUT_REQUIRED is typed into its command (SendStreamingMessage)', async () => {
    const session = (await ctx().createSession(liveShell)).session_id;
    const c = await ctx().attach(session);
    const accepted = await c.request('SendStreamingMessage', {
      message: userMessage('read -p "age? " a; echo age $a'),
    });
    const taskId = payloadOf<{ task_id: string }>(accepted).task_id;
    const final = (r: Parameters<typeof taskUpdateOf>[0]) => is.taskUpdate(taskId)(r) && taskUpdateOf(r)?.delta.final;
    const asked = taskUpdateOf(await c.waitFor(final, 15000))!;
    expect(asked.task.status.state).toBe('INPUT_REQUIRED');
    const from = c.mark();
    const again = await c.request('SendStreamingMessage', { message: toTask('42', taskId) });
    expect(payloadOf<{ task_id: string }>(again).task_id).toBe(taskId);
    const ended = taskUpdateOf(
      await c.waitFor((r) => final(r) === true && taskUpdateOf(r)?.task.status.state !== 'INPUT_REQUIRED', 15000, from),
    )!;
    expect(ended.task.status.state).toBe('COMPLETED');
    expect(outputOf(ended.task)).toContain('age 42');
  });
});
