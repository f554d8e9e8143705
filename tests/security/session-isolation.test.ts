/**
 * A `pty:control` token bound to one session reaches that session's programs and tasks, and
 * through them nothing of the service: with PTYWS_SESSION_USER they run as an unprivileged user,
 * so a task or a typed command that tries the service's environment and memory (/proc/$PPID, the
 * agent's /proc files), its state dir, the transcript archives and the NATS/Postgres URLs gets
 * nothing. Both the A2A task route (message:send, a process the agent starts) and the terminal
 * route (typed input, a program the spawner started) are probed; in cluster mode the agent is a
 * process of its own, started with PTYWS_DATABASE_URL and PTYWS_ADMIN_TOKEN in its environment.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TestContext, joinSession, type ClusterHandle } from '@pty-ws/testkit';
import { awaitState, rest, textMessage, type V1Task } from '../a2a/support';

jest.setTimeout(60_000);

const ROOT = process.getuid?.() === 0;
/** Present on Debian, Ubuntu, Alpine and RHEL alike. */
const SESSION_USER = 'nobody';

/**
 * Prints what a session's program can reach: every ancestor that is not one of the session's own
 * shells (the spawner and the agent: what /proc/$PPID is to a task's \`sh -c\`), and the service
 * pid the test names. Opening /proc/<pid>/environ or /mem is the kernel's ptrace check; only
 * what failed stays silent.
 */
const PROBE = `svc=$1
echo "UID $(id -u)"
echo "ENV $(env | grep -c '^PTYWS_')"
pids=$svc
pid=$PPID
while [ "$pid" -gt 1 ]; do
  case "$(cat /proc/$pid/comm)" in sh|dash|bash) ;; *) pids="$pids $pid" ;; esac
  pid=$(sed 's/.*) //' /proc/$pid/stat | cut -d' ' -f2)
done
echo "TRIED $pids"
for pid in $pids; do
  for f in environ mem; do
    if (exec 3<"/proc/$pid/$f") 2>/dev/null; then
      echo "OPENED /proc/$pid/$f"
      tr '\\0' '\\n' <"/proc/$pid/environ" 2>/dev/null | grep -a '^PTYWS_'
    fi
  done
done
shift
for d in "$@"; do
  ls -A "$d" >/dev/null 2>&1 && echo "LISTED $d"
  cat "$d"/* "$d"/*/* 2>/dev/null | grep -a -c . | sed "s|^|BYTES-FROM $d |" | grep -v ' 0$'
done
echo "PROBE""-END"
`;

(ROOT ? describe : describe.skip)('session isolation (PTYWS_SESSION_USER; needs root to switch users)', () => {
  const stateDir = mkdtempSync('/tmp/ptyws-iso-');
  const probeDir = mkdtempSync('/tmp/ptyws-probe-');
  const probe = path.join(probeDir, 'probe.sh');
  let ctx: TestContext;
  let session = '';
  let bound = '';
  let servicePid = 0;
  let secretPlaces: string[] = [];

  beforeAll(async () => {
    writeFileSync(probe, PROBE, { mode: 0o644 });
    chmodSync(probeDir, 0o755); // the session user runs it
    ctx = await TestContext.start({ sessionUser: SESSION_USER, stateDir });
    servicePid =
      ctx.server.mode === 'cluster' ? ((ctx.server.node as ClusterHandle).agents[0]!.child.pid ?? 0) : process.pid;
    const transcripts = ctx.config.transcriptDir ?? path.join(stateDir, 'pty-transcripts');
    secretPlaces = [stateDir, transcripts];
    // Another session with output of its own, archived by the service.
    const other = await ctx.createSession({ argv: ['/bin/cat'] });
    const watcher = await ctx.attach(other.session_id);
    await joinSession(watcher, { role: 'controller' });
    watcher.input('other-secret\n');
    await watcher.collectOutput(/other-secret/, 10_000);
    session = (await ctx.createSession({ argv: ['/bin/sh'], env: { PS1: '$ ' }, cols: 200, rows: 50 })).session_id;
    bound = (await ctx.mintToken({ scopes: ['pty:control'], session_id: session, ttl_seconds: 600 })).token;
  });
  afterAll(async () => {
    await ctx?.dispose();
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(probeDir, { recursive: true, force: true });
  });

  const probeCommand = () => `sh ${probe} ${servicePid} ${secretPlaces.join(' ')}`;

  /** What a probe printed must show the session user, and nothing of the service. */
  function expectNothingReached(output: string): void {
    expect(output).toContain('PROBE-END');
    expect(output).toMatch(/UID 65534\b/);
    expect(output).toMatch(/ENV 0\b/);
    // The service, and in the terminal the spawner too, were among the processes tried.
    expect(output).toMatch(new RegExp(`TRIED ${servicePid}( \\d+)+`));
    const reached = output.split(/\r?\n/).filter((l) => /^(OPENED|LISTED|BYTES-FROM|PTYWS_)/.test(l));
    expect(reached).toEqual([]);
    expect(output).not.toContain(ctx.server.adminToken);
    expect(output).not.toMatch(/postgres(ql)?:\/\/|nats:\/\//);
    expect(output).not.toContain('other-secret');
  }

  it('an A2A task sent with the session-bound token reaches nothing of the service', async () => {
    const sent = await rest(
      ctx,
      'POST',
      '/message:send',
      { message: textMessage(probeCommand(), session) },
      { token: bound },
    );
    expect(sent.status).toBe(200);
    const taskId = (sent.body as { task: V1Task }).task.id;
    const done = await awaitState(ctx, taskId, ['COMPLETED', 'FAILED'], 20_000);
    const output = (done.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('');
    expectNothingReached(output);
  });

  it('a command typed into the terminal with the session-bound token reaches nothing of the service', async () => {
    const c = await ctx.attach(session, { token: bound });
    await joinSession(c, { role: 'controller' });
    const from = c.mark();
    c.input(`${probeCommand()}\n`);
    const output = await c.collectOutput(/PROBE-END/, 20_000, from);
    expectNothingReached(output);
  });

  it("a live shell's tasks run in the session user's shell, with the integration it can read", async () => {
    const live = await ctx.createSession({
      argv: ['/bin/bash', '--norc', '--noprofile'],
      env: { PS1: '$ ' },
      task_executor: 'live_shell',
    });
    const watcher = await ctx.attach(live.session_id);
    await joinSession(watcher, { role: 'observer' });
    const from = watcher.mark();
    const sent = await rest(ctx, 'POST', '/message:send', { message: textMessage('id -u', live.session_id) });
    expect(sent.status).toBe(200);
    const done = await awaitState(ctx, (sent.body as { task: V1Task }).task.id, ['COMPLETED', 'FAILED'], 20_000);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    // Typed into the terminal (the process executor, its fallback, would show nothing there).
    await watcher.collectOutput(/\b65534\b/, 5000, from);
    expect((done.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('')).toMatch(/\b65534\b/);
  });
});
