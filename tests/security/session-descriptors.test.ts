/**
 * A session's programs and its tasks hold only their own stdin, stdout and stderr: none of the
 * agent's descriptors. The pty pairs the agent opens are not close-on-exec, so without
 * native/close-fds.c every task held every session's pty master (it could read another session's
 * output and type into its shell), and every session held the pty of the first one.
 */
import { joinSession, TestContext } from '@pty-ws/testkit';
import { awaitState, rest, textMessage, type V1Task } from '../a2a/support';

jest.setTimeout(60_000);

/** The open descriptors of the shell that runs it (`ls` is its child), then a marker. */
const LIST_FDS = 'ls -l /proc/$$/fd; echo "FDS""-END"';

/** fd → what it points at, from `ls -l` lines (`… 0 -> /dev/pts/3`). */
function descriptors(listing: string): Map<string, string> {
  const text = listing.slice(0, listing.indexOf('FDS-END'));
  return new Map([...text.matchAll(/ (\d+) -> (\S+)/g)].map((m) => [m[1]!, m[2]!]));
}

/**
 * Beyond 0, 1 and 2, only the shell's own copies of its own terminal (an interactive dash keeps
 * /dev/tty on fd 10): no pty master, no other session's tty, no pipe of the agent's.
 */
function expectOnlyItsOwn(listing: string): void {
  const fds = descriptors(listing);
  expect(['0', '1', '2'].filter((fd) => fds.has(fd))).toEqual(['0', '1', '2']);
  const own = fds.get('0')!.startsWith('/dev/pts/') ? [fds.get('0'), '/dev/tty'] : [];
  const others = [...fds].filter(([fd, target]) => !['0', '1', '2'].includes(fd) && !own.includes(target));
  expect(others).toEqual([]);
}

describe("a session's programs and tasks inherit none of the agent's descriptors", () => {
  let ctx: TestContext;
  const sessions: string[] = [];

  beforeAll(async () => {
    ctx = await TestContext.start();
    // Several live sessions: each has a pty pair open in the agent.
    for (let i = 0; i < 3; i++)
      sessions.push((await ctx.createSession({ argv: ['/bin/sh'], env: { PS1: '$ ' } })).session_id);
  });
  afterAll(() => ctx?.dispose());

  it('a program in the terminal holds only its own tty', async () => {
    for (const id of sessions) {
      const c = await ctx.attach(id);
      await joinSession(c, { role: 'controller' });
      const from = c.mark();
      c.input(`${LIST_FDS}\n`);
      expectOnlyItsOwn(await c.collectOutput(/\nFDS-END/, 10_000, from));
    }
  });

  it("a task holds none of the sessions' ptys", async () => {
    const sent = await rest(ctx, 'POST', '/message:send', { message: textMessage(LIST_FDS, sessions[1]) });
    expect(sent.status).toBe(200);
    const done = await awaitState(ctx, (sent.body as { task: V1Task }).task.id, ['COMPLETED', 'FAILED'], 20_000);
    expectOnlyItsOwn((done.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join(''));
  });
});
