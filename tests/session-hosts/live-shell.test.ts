/**
 * The live-shell task executor (`task_executor: "live_shell"`): tasks are typed into the session's
 * interactive shell, visible to every observer, and their exit status comes from the agent's
 * OSC 133 shell integration. Cancel sends Ctrl-C and leaves the shell usable.
 */
import { newId, type Message, type Task } from '@pty-ws/protocol';
import { http, is, joinSession, taskUpdateOf, type TestClient } from '@pty-ws/testkit';
import { INSTALLED, privateAgent, useServer } from './support';

const agent = privateAgent();
const ctx = useServer({ stateDir: agent.stateDir, agentId: agent.agentId, taskTimeoutS: 20 }, agent.cleanup);
const PATH_ENV = process.env['PATH'] ?? '/usr/bin:/bin';

function message(text: string): Message {
  return { message_id: newId(), role: 'ROLE_USER', parts: [{ text }] };
}

async function liveSession(extra: Record<string, unknown>): Promise<string> {
  const res = await http(ctx().server, 'POST', '/api/v1/sessions', {
    json: { env: { PATH: PATH_ENV, PS1: '$ ' }, cols: 100, rows: 30, task_executor: 'live_shell', ...extra },
  });
  if (res.status !== 201) throw new Error(`POST /api/v1/sessions → ${res.status} ${res.text}`);
  return (res.body as { session_id: string }).session_id;
}

async function run(c: TestClient, text: string, timeoutMs = 15_000): Promise<Task> {
  const reply = await c.request('SendMessage', { message: message(text) }, {}, timeoutMs);
  if (reply.op !== 'SendMessage.Response') throw new Error(`SendMessage failed: ${JSON.stringify(reply.payload)}`);
  return (reply.payload as { task: Task }).task;
}

const exitOf = (t: Task) => (t.metadata as { exit_code?: number | null } | undefined)?.exit_code;
const artifact = (t: Task) =>
  (t.artifacts ?? []).flatMap((a) => a.parts.map((p) => ('text' in p ? String(p.text) : ''))).join('');

const shells: Array<[string, Record<string, unknown>]> = [
  ['bash', { argv: ['/bin/bash', '--norc', '--noprofile'] }],
  ['sh', { argv: ['/bin/sh'] }],
  ...(INSTALLED.includes('tmux')
    ? [
        ['bash in tmux', { argv: ['/bin/bash', '--norc', '--noprofile'], session_backend: 'tmux' }] as [
          string,
          Record<string, unknown>,
        ],
      ]
    : []),
  ...(INSTALLED.includes('screen')
    ? [['sh in screen', { argv: ['/bin/sh'], session_backend: 'screen' }] as [string, Record<string, unknown>]]
    : []),
];

describe.each(shells)('live shell: %s', (_name, body) => {
  let sessionId = '';
  let ctl: TestClient;
  let observer: TestClient;

  beforeAll(async () => {
    sessionId = await liveSession(body);
    ctl = await ctx().attach(sessionId);
    await joinSession(ctl, { role: 'controller' });
    observer = await ctx().attach(sessionId);
    await joinSession(observer, { role: 'observer' });
  });

  it('exit codes: true → 0 COMPLETED, false → 1 FAILED, (exit 3) → 3 FAILED', async () => {
    const ok = await run(ctl, 'true');
    expect([ok.status.state, exitOf(ok)]).toEqual(['COMPLETED', 0]);
    const bad = await run(ctl, 'false');
    expect([bad.status.state, exitOf(bad)]).toEqual(['FAILED', 1]);
    const three = await run(ctl, '(exit 3)');
    expect([three.status.state, exitOf(three)]).toEqual(['FAILED', 3]);
  });

  it('the command is typed where every observer sees it; the artifact is its output', async () => {
    const from = observer.mark();
    const t = await run(ctl, 'echo live_$((20+22))');
    expect(t.status.state).toBe('COMPLETED');
    expect(artifact(t)).toMatch(/live_42/);
    // The observer saw the command line itself, not only its output.
    await observer.collectOutput(/echo live_\$\(\(20\+22\)\)/, 5000, from);
  });

  it('cancel sends Ctrl-C: the task is CANCELED and the shell stays usable', async () => {
    const from = ctl.mark();
    const accepted = await ctl.request('SendStreamingMessage', { message: message('sleep 30') });
    const taskId = (accepted.payload as { task_id: string }).task_id;
    await ctl.waitFor((r) => is.taskUpdate(taskId)(r) && taskUpdateOf(r)?.task.status.state === 'WORKING', 5000, from);
    await ctl.collectOutput(/sleep 30/, 5000, from);
    const canceled = await ctl.request('CancelTask', { task_id: taskId });
    expect((canceled.payload as { task: Task }).task.status.state).toBe('CANCELED');
    const after = await run(ctl, 'echo still_$((1+2))');
    expect(after.status.state).toBe('COMPLETED');
    expect(artifact(after)).toMatch(/still_3/);
  });

  afterAll(async () => {
    await http(ctx().server, 'DELETE', `/api/v1/sessions/${sessionId}`);
  });
});

describe('live shell fallback', () => {
  it('a session whose program is not a shell the agent set up runs tasks in the process executor', async () => {
    const id = await liveSession({ argv: ['/bin/sh', '-c', 'sleep 60'] });
    const c = await ctx().attach(id);
    await joinSession(c, { role: 'controller' });
    const from = c.mark();
    const t = await run(c, 'echo beside_$((2+3)); exit 4');
    expect([t.status.state, exitOf(t)]).toEqual(['FAILED', 4]);
    expect(artifact(t)).toMatch(/beside_5/);
    // Nothing was typed into the PTY.
    expect(c.outputSince(from).toString()).not.toMatch(/beside/);
  });

  it('task_executor is validated', async () => {
    const res = await http(ctx().server, 'POST', '/api/v1/sessions', {
      json: { argv: ['/bin/sh'], task_executor: 'teleport' },
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/task_executor/);
  });
});
