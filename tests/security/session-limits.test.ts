/**
 * Resource limits of session programs (PTYWS_SESSION_MAX_*): the agent starts them under
 * `prlimit`, so the limits hold for everything a session starts. RLIMIT_NPROC counts the
 * processes of the session's real uid on the whole host and root ignores it, so the fork test runs
 * its loop as a uid of its own (setpriv), as sessions do when they run as their own user.
 */
import { TestContext, http, waitUntil } from '@pty-ws/testkit';

jest.setTimeout(60_000);

const MAX_PROCS = 12;
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_MEMORY_BYTES = 256 * 1024 * 1024;
/** A uid nothing else on the host runs as (RLIMIT_NPROC counts per real uid), one per run. */
const LOOP_UID = 50_000 + (process.pid % 10_000);
const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await TestContext.start({
    sessionMaxProcs: MAX_PROCS,
    sessionMaxFileBytes: MAX_FILE_BYTES,
    sessionMaxMemoryBytes: MAX_MEMORY_BYTES,
  });
});
afterAll(async () => {
  await ctx?.dispose();
});

/** The session's output once it printed `END`. */
async function outputOf(script: string, backend?: string): Promise<string> {
  const s = await ctx.createSession({
    argv: ['/bin/sh', '-c', `${script}; echo END; exec sleep 60`],
    env: ENV,
    ...(backend !== undefined ? { session_backend: backend } : {}),
  });
  return waitUntil(
    async () => {
      const res = await http(ctx.server, 'GET', `/api/v1/sessions/${s.session_id}/transcript?stream=stdout`);
      const frames = (res.body as { frames: Array<{ text?: string }> }).frames;
      const text = frames.map((f) => f.text ?? '').join('');
      return /END/.test(text) ? text : undefined;
    },
    30_000,
    'the session to finish its script',
    100,
  );
}

it('a loop starting processes stops at the process limit (fork fails with EAGAIN)', async () => {
  const forkLoop =
    '$n = 0; for (1 .. 40) { $p = fork; if (!defined $p) { $err = $!; last } if (!$p) { sleep 30; exit 0 } ' +
    'push @k, $p; $n++ } kill "TERM", @k; print "FORKED $n ", ($err ? "ERR $err" : "ALL"), "\\n"';
  const text = await outputOf(`setpriv --reuid=${LOOP_UID} --regid=${LOOP_UID} --clear-groups perl -e '${forkLoop}'`);
  // The loop itself is one of the uid's processes.
  expect(/FORKED (\d+) (.*)/.exec(text)?.slice(1, 3)).toEqual([
    String(MAX_PROCS - 1),
    'ERR Resource temporarily unavailable',
  ]);
});

it.each(['native', 'tmux'])('a file cannot grow past the file-size limit (%s backend)', async (backend) => {
  const text = await outputOf(
    `f=$(mktemp); head -c ${2 * MAX_FILE_BYTES} /dev/zero > "$f"; echo SIZE $(stat -c %s "$f"); rm -f "$f"`,
    backend,
  );
  expect(/SIZE (\d+)/.exec(text)?.[1]).toBe(String(MAX_FILE_BYTES));
});

it('a process cannot map more memory than the limit', async () => {
  const text = await outputOf(
    `awk 'BEGIN { s = "x"; while (length(s) < ${2 * MAX_MEMORY_BYTES}) s = s s; print "GREW" }' 2>/dev/null; echo AWK $?`,
  );
  expect(text).not.toContain('GREW');
  expect(/AWK (\d+)/.exec(text)?.[1]).not.toBe('0');
});
