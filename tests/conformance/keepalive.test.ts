/** Keepalive and stale-client reaping (binding §2.4, scenario 14). */
import { delay, is, joinSession, sessionFrameOf, type Received } from '@pty-ws/testkit';
import { marker, shell, useServer } from './support';

describe('keepalive', () => {
  // Ping every 100 ms, reap after 600 ms without a pong; one controller at a time.
  const ctx = useServer({ pingIntervalMs: 100, pongTimeoutMs: 600, maxControllers: 1 });

  it('binding scenario 14: a controller that stops answering pings is reaped; a later client becomes controller and its input works', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const watcher = await ctx().attach(s);
    await joinSession(watcher, { role: 'observer', client_label: 'watcher' });

    const dead = await ctx().attach(s, { autoPong: false });
    const fd = await joinSession(dead, { role: 'controller', client_label: 'frozen-tab' });
    expect(fd.roleAssigned.role).toBe('controller');

    // While it holds the only controller slot, another controller request is downgraded.
    const early = await ctx().attach(s);
    const fe = await joinSession(early, { role: 'controller' });
    expect(fe.roleAssigned).toMatchObject({ role: 'observer', downgraded: true });
    await early.close();

    // The server reaps the dead connection and releases its role.
    const from = watcher.mark();
    const released = await watcher.waitFor(
      (r: Received) => {
        const m = sessionFrameOf(r, 'MembershipChanged');
        return (
          m !== undefined &&
          !m.controllers.some((c) => c.client_id === fd.clientId) &&
          !m.observers.some((c) => c.client_id === fd.clientId)
        );
      },
      4000,
      from,
    );
    expect(sessionFrameOf(released, 'MembershipChanged')?.controllers).toEqual([]);
    const closed = await Promise.race([dead.closed, delay(3000).then(() => undefined)]);
    expect(closed).toBeDefined();

    // A later authorized attach becomes controller and can type.
    const next = await ctx().attach(s);
    const fn = await joinSession(next, { role: 'controller', client_label: 'new-tab' });
    expect(fn.roleAssigned.role).toBe('controller');
    expect(fn.roleAssigned.downgraded ?? false).toBe(false);
    const m = marker('after_reap');
    const wFrom = watcher.mark();
    next.input(m.cmd);
    await watcher.collectOutput(m.re, 3000, wFrom);
  });

  it('a controller that answers pings keeps its role well past the pong timeout', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const live = await ctx().attach(s);
    const fl = await joinSession(live, { role: 'controller' });
    const from = live.mark();
    await delay(1500);
    expect(live.isOpen).toBe(true);
    expect(live.frames.slice(from).filter(is.kind('MembershipChanged'))).toHaveLength(0);
    const m = marker('still_here');
    live.input(m.cmd);
    await live.collectOutput(m.re, 3000, from);
    const other = await ctx().attach(s);
    const fo = await joinSession(other, { role: 'controller' });
    expect(fo.roleAssigned).toMatchObject({ role: 'observer', downgraded: true });
    expect(fl.roleAssigned.role).toBe('controller');
  });

  it('the server sends WebSocket pings at the configured interval', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const c = await ctx().attach(s);
    let pings = 0;
    c.ws.on('ping', () => (pings += 1));
    await delay(650);
    expect(pings).toBeGreaterThanOrEqual(3);
  });
});
