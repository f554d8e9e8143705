/**
 * A live-shell task whose command waits on the terminal asks for input (TASK_STATE_INPUT_REQUIRED,
 * the prompt in its status message), whether the shell runs straight on the agent's pty or inside
 * a tmux or screen session; a message to the task types the answer and the task works on. Runs in
 * both modes (PTYWS_TEST_MODE=cluster: the task runs on the owning agent, reached over NATS).
 */
import { findExecutable } from '@pty-ws/pty-agent';
import { newId } from '@pty-ws/protocol';
import { http } from '@pty-ws/testkit';
import { restOk, textMessage, type V1Task } from '../a2a/support';
import { INSTALLED, privateAgent, useServer } from './support';

const agent = privateAgent();
const ctx = useServer(
  { stateDir: agent.stateDir, agentId: agent.agentId, taskTimeoutS: 8, taskInputQuietMs: 500 },
  agent.cleanup,
);
const PATH_ENV = process.env['PATH'] ?? '/usr/bin:/bin';
const ZSH = findExecutable('zsh');

type Case = [string, Record<string, unknown>];
const bash: Record<string, unknown> = { argv: ['/bin/bash', '--norc', '--noprofile'] };
const zsh: Record<string, unknown> = { argv: [ZSH], env: { PATH: PATH_ENV, PS1: '%% ' } };
const shells: Case[] = [
  ['bash', bash],
  ['sh', { argv: ['/bin/sh'] }],
  ...(INSTALLED.includes('tmux')
    ? ([
        ['bash in tmux', { ...bash, session_backend: 'tmux' }],
        ['sh in tmux', { argv: ['/bin/sh'], session_backend: 'tmux' }],
      ] as Case[])
    : []),
  ...(INSTALLED.includes('screen')
    ? ([
        ['bash in screen', { ...bash, session_backend: 'screen' }],
        ['sh in screen', { argv: ['/bin/sh'], session_backend: 'screen' }],
      ] as Case[])
    : []),
  ...(ZSH && INSTALLED.includes('tmux') ? ([['zsh in tmux', { ...zsh, session_backend: 'tmux' }]] as Case[]) : []),
  ...(ZSH && INSTALLED.includes('screen')
    ? ([['zsh in screen', { ...zsh, session_backend: 'screen' }]] as Case[])
    : []),
];

/** Sends a message over HTTP+JSON; resolves when the task ends or asks for input. */
async function send(sessionId: string, text: string, extra: Record<string, unknown> = {}): Promise<V1Task> {
  const message = { ...textMessage(text, sessionId), ...extra };
  return (await restOk<{ task: V1Task }>(ctx(), 'POST', '/message:send', { message })).task;
}

async function answer(sessionId: string, task: V1Task, text: string, enter = true): Promise<V1Task> {
  return send(sessionId, text, {
    task_id: task.id,
    metadata: { session_id: sessionId, ...(enter ? {} : { enter: false }) },
  });
}

const output = (t: V1Task) => (t.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('');
const promptOf = (t: V1Task) =>
  ((t.status as { message?: { parts?: { text?: string }[] } }).message?.parts ?? []).map((p) => p.text ?? '').join('');

describe.each(shells)('INPUT_REQUIRED in a live shell: %s', (_name, body) => {
  let sessionId = '';

  beforeAll(async () => {
    const res = await http(ctx().server, 'POST', '/api/v1/sessions', {
      json: { env: { PATH: PATH_ENV, PS1: '$ ' }, cols: 100, rows: 30, task_executor: 'live_shell', ...body },
    });
    if (res.status !== 201) throw new Error(`POST /api/v1/sessions → ${res.status} ${res.text}`);
    sessionId = (res.body as { session_id: string }).session_id;
  });
  afterAll(async () => {
    await http(ctx().server, 'DELETE', `/api/v1/sessions/${sessionId}`);
  });

  it('a command reading the terminal asks for input with its prompt; the answer is typed and the task works on', async () => {
    const tag = newId().slice(-6);
    const asked = await send(sessionId, `printf 'name_${tag}? '; read n; echo "hi $n"`);
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(promptOf(asked)).toContain(`name_${tag}?`);
    // Typed without Enter: the command still reads, and asks again.
    const partly = await answer(sessionId, asked, 'bo', false);
    expect([partly.id, partly.status.state]).toEqual([asked.id, 'TASK_STATE_INPUT_REQUIRED']);
    const done = await answer(sessionId, asked, 'b');
    expect([done.id, done.status.state]).toEqual([asked.id, 'TASK_STATE_COMPLETED']);
    expect(output(done)).toContain('hi bob');
    // The shell is usable afterwards.
    const after = await send(sessionId, 'echo after_$((1+2))');
    expect(output(after)).toBe('after_3\n');
  });

  it('a secret typed with the terminal echo off stays out of the artifact and the history', async () => {
    const asked = await send(
      sessionId,
      `stty -echo; printf 'password? '; read p; stty echo; echo; echo "got \${#p} chars"`,
    );
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(promptOf(asked)).toContain('password?');
    const done = await answer(sessionId, asked, 'hunter2');
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(output(done)).toContain('got 7 chars');
    const full = await restOk<V1Task>(ctx(), 'GET', `/tasks/${done.id}`);
    expect(JSON.stringify(full)).not.toContain('hunter2');
    expect(JSON.stringify(done)).not.toContain('hunter2');
  });

  it('a command that is busy but quiet (not reading the terminal) stays WORKING to its end', async () => {
    const t = await send(sessionId, 'sleep 1.5; echo slept');
    expect(t.status.state).toBe('TASK_STATE_COMPLETED');
    expect(output(t)).toBe('slept\n');
  });
});
