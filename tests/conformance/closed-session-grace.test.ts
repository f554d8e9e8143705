/**
 * A WebSocket attached to a session that had already closed (still retained) has only a join to
 * make. One that never sends it is ended after a grace (CLOSED_SESSION_JOIN_GRACE_MS, 10 s) with
 * binding_goodbye session_closed, instead of holding a connection open forever; one that joins
 * within the grace gets the end of the log and the same goodbye at once.
 */
import { TestContext, http, is, joinSession, type TestClient } from '@pty-ws/testkit';
import { shell } from './support';

jest.setTimeout(40_000);

let ctx: TestContext;
let sessionId = '';
beforeAll(async () => {
  ctx = await TestContext.start();
  sessionId = (await ctx.createSession(shell())).session_id;
  const c = await ctx.attach(sessionId);
  await joinSession(c, { role: 'controller' });
  c.input('exit\n');
  await c.waitFor(is.kind('Closed'), 10_000);
  for (let i = 0; i < 200; i++) {
    const info = await http(ctx.server, 'GET', `/api/v1/sessions/${sessionId}`);
    if ((info.body as { state?: string }).state === 'closed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
});
afterAll(() => ctx?.dispose());

const goodbyeOf = (c: TestClient) =>
  c.frames.find(is.op('binding_goodbye')) as { frame: { payload: { reason: string; detail?: string } } } | undefined;

describe('a connection to a closed session', () => {
  it('that never joins is closed with binding_goodbye session_closed after the grace', async () => {
    const c = await ctx.attach(sessionId); // waits for binding_hello
    // Other requests do not hold it open: only a join has a purpose here.
    c.send('ping', {});
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      c.closed,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 25_000))),
    ]);
    clearTimeout(timer);
    expect(closed).toBeDefined();
    expect(closed!.code).toBe(1000);
    expect(goodbyeOf(c)?.frame.payload).toEqual({
      reason: 'session_closed',
      detail: 'the session is closed and no join came',
    });
  });

  it('that joins within the grace gets the Closed frame and the goodbye at once', async () => {
    const c = await ctx.attach(sessionId);
    c.send('pty.join_session', { role: 'observer' });
    await c.waitFor(is.kind('Closed'), 5000);
    const closed = await c.closed;
    expect(closed.code).toBe(1000);
    expect(goodbyeOf(c)?.frame.payload).toEqual({ reason: 'session_closed' });
  });
});
