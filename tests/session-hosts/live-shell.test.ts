/**
 * The live-shell task executor (`task_executor: "live_shell"`): tasks are typed into the session's
 * interactive shell, visible to every observer, and their exit status comes from the agent's
 * OSC 133 shell integration. Cancel sends Ctrl-C and leaves the shell usable.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { newId, type Message, type Task } from '@pty-ws/protocol';
import { http, is, isKeyframe, joinSession, sessionFrameOf, taskUpdateOf, type TestClient } from '@pty-ws/testkit';
import { findExecutable } from '@pty-ws/pty-agent';
import { snapshotLines, until } from './multiplexer-view';
import { INSTALLED, privateAgent, useServer } from './support';

// Known flake, not understood yet: under a loaded CI box, bash inside tmux sometimes gives the task
// after a cancel an empty artifact (the redraw carrying its output is not among the bytes between
// the marks). A retry is logged, so the flake stays visible; a real regression fails every try.
jest.retryTimes(2, { logErrorsBeforeRetry: true });

const agent = privateAgent();
const gateDir = mkdtempSync('/tmp/pwgate-');
afterAll(() => rmSync(gateDir, { recursive: true, force: true }));
// Small output bounds, so a bounded artifact is quick to produce.
const ctx = useServer(
  {
    stateDir: agent.stateDir,
    agentId: agent.agentId,
    taskTimeoutS: 20,
    taskOutputBytes: 2048,
    taskOutputHeadBytes: 512,
  },
  agent.cleanup,
);
const PATH_ENV = process.env['PATH'] ?? '/usr/bin:/bin';
/** Debian's zsh (.ci/apt-packages.txt). */
const ZSH = findExecutable('zsh');

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

/**
 * Waits until the client's screen (its join keyframe plus every output since) shows a line
 * matching `re`. The screen, not the byte stream: zle inside tmux may redraw a typed line in
 * pieces with cursor moves between them.
 */
async function screenShows(c: TestClient, re: RegExp, timeoutMs = 5000): Promise<void> {
  const kfFrame = c.frames.find(isKeyframe);
  const kf = kfFrame && sessionFrameOf(kfFrame, 'Keyframe');
  if (!kfFrame || !kf) throw new Error('the client has no join keyframe');
  const at = c.frames.indexOf(kfFrame);
  await until(
    `a screen line matching ${String(re)}`,
    async () => {
      const snapshot = Buffer.concat([Buffer.from(kf.snapshot, 'base64'), c.outputSince(at + 1)]);
      const lines = await snapshotLines(snapshot.toString('base64'), kf.snapshot_cols, kf.snapshot_rows);
      return lines.some((l) => re.test(l)) ? true : undefined;
    },
    timeoutMs,
  );
}

const exitOf = (t: Task) => (t.metadata as { exit_code?: number | null } | undefined)?.exit_code;
const artifact = (t: Task) =>
  (t.artifacts ?? []).flatMap((a) => a.parts.map((p) => ('text' in p ? String(p.text) : ''))).join('');

const shells: Array<[string, Record<string, unknown>]> = [
  ['bash', { argv: ['/bin/bash', '--norc', '--noprofile'] }],
  ['sh', { argv: ['/bin/sh'] }],
  // A login zsh with the system's start-up files: the integration reaches it through ZDOTDIR.
  ...(ZSH
    ? [['zsh', { argv: [ZSH, '-l'], env: { PATH: PATH_ENV, PS1: '%% ' } }] as [string, Record<string, unknown>]]
    : []),
  ...(INSTALLED.includes('tmux')
    ? [
        ['bash in tmux', { argv: ['/bin/bash', '--norc', '--noprofile'], session_backend: 'tmux' }] as [
          string,
          Record<string, unknown>,
        ],
      ]
    : []),
  ...(INSTALLED.includes('screen')
    ? ([
        ['sh in screen', { argv: ['/bin/sh'], session_backend: 'screen' }],
        ['bash in screen', { argv: ['/bin/bash', '--norc', '--noprofile'], session_backend: 'screen' }],
      ] as Array<[string, Record<string, unknown>]>)
    : []),
  ...(ZSH && INSTALLED.includes('tmux')
    ? [
        ['zsh in tmux', { argv: [ZSH], env: { PATH: PATH_ENV, PS1: '%% ' }, session_backend: 'tmux' }] as [
          string,
          Record<string, unknown>,
        ],
      ]
    : []),
  ...(ZSH && INSTALLED.includes('screen')
    ? [
        ['zsh in screen', { argv: [ZSH], env: { PATH: PATH_ENV, PS1: '%% ' }, session_backend: 'screen' }] as [
          string,
          Record<string, unknown>,
        ],
      ]
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
    const t = await run(ctl, 'echo live_$((20+22))');
    expect(t.status.state).toBe('COMPLETED');
    expect(artifact(t)).toMatch(/live_42/);
    // The observer saw the command line itself, not only its output.
    await screenShows(observer, /echo live_\$\(\(20\+22\)\)/);
  });

  it('output without a final newline keeps its last line', async () => {
    expect(artifact(await run(ctl, 'echo -n abc'))).toBe('abc');
    expect(artifact(await run(ctl, "printf 'a\\nb'"))).toBe('a\nb');
    expect(artifact(await run(ctl, 'printf "\\033[31mred\\033[0m no newline"'))).toBe('red no newline');
    expect(artifact(await run(ctl, 'echo one; echo two'))).toBe('one\ntwo\n');
  });

  it('a line redrawn with \\r keeps what it shows last', async () => {
    const t = await run(ctl, "printf 'step 1/3\\rstep 2/3\\rdone    \\n'; printf 'tail'");
    expect(artifact(t).replace(/ +$/gm, '')).toBe('done\ntail');
  });

  it('a progress line cleared with an erase-line escape shows its last state, with or without a final newline', async () => {
    // `\033[K` erases what a longer earlier state left to the right of the cursor.
    const t = await run(ctl, "printf 'downloading...\\r\\033[Kok\\n'; printf '  10%%\\r\\033[2K\\r 5%%\\r\\033[K3'");
    expect(artifact(t).replace(/ +$/gm, '')).toBe('ok\n3');
  });

  it('the output streams to the task subscriber while the command runs', async () => {
    const gate = path.join(gateDir, newId());
    const from = ctl.mark();
    const accepted = await ctl.request('SendStreamingMessage', {
      message: message(`echo early_$((1+1)); while [ ! -e ${gate} ]; do sleep 0.05; done; echo late_$((1+2))`),
    });
    const taskId = (accepted.payload as { task_id: string }).task_id;
    await ctl.waitFor(
      (r) => r.type === 'json' && r.frame.op === 'TaskArtifactUpdate' && JSON.stringify(r.frame).includes('early_2'),
      8000,
      from,
    );
    // The command waits for the gate: the chunk came while the task was running.
    const running = await ctl.request('GetTask', { task_id: taskId });
    expect((running.payload as { task: Task }).task.status.state).toBe('WORKING');
    writeFileSync(gate, '');
    const done = await ctl.waitFor(
      (r) => is.taskUpdate(taskId)(r) && taskUpdateOf(r)?.task.status.state === 'COMPLETED',
      10_000,
      from,
    );
    expect(artifact(taskUpdateOf(done)!.task)).toBe('early_2\nlate_3\n');
  });

  // A multiplexer redraws its screen rather than replaying what scrolled by: a flood reaches the
  // agent as little more than its last screenful, so bounds are tested without one.
  const direct = body['session_backend'] === undefined ? it : it.skip;
  direct(
    'a long output keeps its start and end; the metadata says what was left out and where to read it',
    async () => {
      const t = await run(ctl, 'seq 1 2000');
      const text = artifact(t);
      expect(text.startsWith('1\n2\n3\n')).toBe(true);
      expect(text.endsWith('1999\n2000\n')).toBe(true);
      const meta = t.artifacts?.[0]?.metadata as {
        truncated: boolean;
        omitted_bytes: number;
        transcript: { from_seq: number; to_seq: number };
      };
      expect(meta).toMatchObject({ truncated: true });
      expect(text).toContain(`[… ${meta.omitted_bytes} bytes left out …]`);
      expect(text).not.toMatch(/\n1000\n/);
      // The transcript range holds what was left out.
      const { from_seq, to_seq } = meta.transcript;
      const page = await http(
        ctx().server,
        'GET',
        `/api/v1/sessions/${sessionId}/transcript?from_seq=${from_seq}&to_seq=${to_seq}&q=1000`,
      );
      expect(page.status).toBe(200);
      expect((page.body as { matches: unknown[] }).matches.length).toBeGreaterThan(0);
    },
  );

  it('cancel sends Ctrl-C: the task is CANCELED and the shell stays usable', async () => {
    const from = ctl.mark();
    const accepted = await ctl.request('SendStreamingMessage', { message: message('sleep 30') });
    const taskId = (accepted.payload as { task_id: string }).task_id;
    await ctl.waitFor((r) => is.taskUpdate(taskId)(r) && taskUpdateOf(r)?.task.status.state === 'WORKING', 5000, from);
    await screenShows(ctl, /sleep 30/);
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

(ZSH ? describe : describe.skip)('live shell: zsh start-up files', () => {
  const home = mkdtempSync('/tmp/pwzh-');
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it("the user's own .zshrc still runs, and child shells do not inherit the agent's ZDOTDIR", async () => {
    writeFileSync(path.join(home, '.zshrc'), 'USER_RC=loaded\n');
    const id = await liveSession({ argv: [ZSH!], env: { PATH: PATH_ENV, PS1: '%% ', HOME: home } });
    const c = await ctx().attach(id);
    await joinSession(c, { role: 'controller' });
    const t = await run(c, 'echo rc_$USER_RC zdot_${ZDOTDIR:-unset}');
    expect([t.status.state, exitOf(t)]).toEqual(['COMPLETED', 0]);
    expect(artifact(t)).toMatch(/rc_loaded zdot_unset/);
    await http(ctx().server, 'DELETE', `/api/v1/sessions/${id}`);
  });

  it('ZDOTDIR is protected: a client cannot point zsh at start-up files of its choosing', async () => {
    const res = await http(ctx().server, 'POST', '/api/v1/sessions', {
      json: { argv: [ZSH!], env: { ZDOTDIR: home } },
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/ZDOTDIR/);
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
