/**
 * Resize (extension scenario 9; docs/spec/README.md interpretation 5) and the close lifecycle
 * (extension scenario 10; binding §5.4).
 */
import { SUBPROTOCOL_BINARY, type SessionFramePayload } from '@pty-ws/protocol';
import {
  TestContext,
  delay,
  http,
  is,
  joinSession,
  seqOf,
  sessionFrameOf,
  type Received,
  type TestClient,
} from '@pty-ws/testkit';
import { expectRequestError, jsonOf, payloadOf, shell, useServer } from './support';

type Closed = Extract<SessionFramePayload, { kind: 'Closed' }>;

const GOODBYE_REASONS = ['server_shutdown', 'session_closed', 'principal_revoked', 'rate_limited', 'other'];

/** Waits for Closed → binding_goodbye → close 1000 on one connection; returns the Closed payload. */
async function expectClosedLifecycle(c: TestClient): Promise<Closed> {
  const closedFrame = await c.waitFor(is.kind('Closed'), 8000);
  const goodbye = await c.waitFor(is.op('binding_goodbye'), 3000);
  expect(c.frames.indexOf(goodbye)).toBeGreaterThan(c.frames.indexOf(closedFrame));
  expect(GOODBYE_REASONS).toContain(payloadOf<{ reason: string }>(jsonOf(goodbye)).reason);
  const info = await c.closed;
  expect(info.code).toBe(1000);
  // Nothing but the goodbye after Closed: no Output or Resize.
  const after = c.frames.slice(c.frames.indexOf(closedFrame) + 1);
  expect(after.filter((r) => is.output()(r) || is.kind('Resize')(r))).toHaveLength(0);
  return sessionFrameOf(closedFrame, 'Closed') as Closed;
}

describe('resize and close lifecycle', () => {
  const ctx = useServer();

  it('extension scenario 9: a resize is applied to the PTY and broadcast to every attached client', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s);
    await joinSession(ctl, { role: 'controller' });
    const ctl2 = await ctx().attach(s);
    await joinSession(ctl2, { role: 'controller' });
    const obs = await ctx().attach(s);
    await joinSession(obs, { role: 'observer' });
    const bin = await ctx().attach(s, { protocols: [SUBPROTOCOL_BINARY] });
    await joinSession(bin, { role: 'observer' });
    const all = [ctl, ctl2, obs, bin];
    const marks = all.map((c) => c.mark());

    ctl.send('pty.session_resize', { cols: 100, rows: 30 });
    const seen = await Promise.all(all.map((c, i) => c.waitFor(is.kind('Resize'), 3000, marks[i])));
    for (const r of seen) expect(jsonOf(r).payload).toEqual({ kind: 'Resize', cols: 100, rows: 30 });
    expect(new Set(seen.map(seqOf)).size).toBe(1);

    // Concurrent resizes: last write wins in sequence order.
    ctl.send('pty.session_resize', { cols: 110, rows: 35 });
    ctl2.send('pty.session_resize', { cols: 120, rows: 40 });
    await obs.waitFor(
      (r) => obs.frames.slice(marks[2]).filter(is.kind('Resize')).length >= 3 && is.kind('Resize')(r),
      3000,
      marks[2],
    );
    const resizes = obs.frames.slice(marks[2]).filter(is.kind('Resize'));
    const last = sessionFrameOf(resizes[resizes.length - 1] as Received, 'Resize');
    // The controller whose resize won types: input from the other would give the session its own
    // size first (the size follows the controller that typed most recently).
    const winner = last?.cols === 110 ? ctl : ctl2;
    const from = winner.mark();
    winner.input('stty size\n');
    await winner.collectOutput(new RegExp(`${String(last?.rows)} ${String(last?.cols)}`), 3000, from);
  });

  it('interpretation 5: resizes outside 20×5 … 1024×1024 are rejected with INVALID_REQUEST and not broadcast', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s);
    await joinSession(ctl, { role: 'controller' });
    const obs = await ctx().attach(s);
    await joinSession(obs, { role: 'observer' });
    const from = obs.mark();
    for (const [cols, rows] of [
      [19, 24],
      [80, 4],
      [1025, 24],
      [80, 1025],
      [0, 0],
    ] as const) {
      await expectRequestError(ctl, 'pty.session_resize', { cols, rows }, 'INVALID_REQUEST');
    }
    await delay(200);
    expect(obs.frames.slice(from).filter(is.kind('Resize'))).toHaveLength(0);
    // The bounds themselves are accepted.
    for (const [cols, rows] of [
      [20, 5],
      [1024, 1024],
      [80, 24],
    ] as const) {
      const m = obs.mark();
      ctl.send('pty.session_resize', { cols, rows });
      const r = await obs.waitFor(is.kind('Resize'), 3000, m);
      expect(jsonOf(r).payload).toEqual({ kind: 'Resize', cols, rows });
    }
  });

  it("the first controller's join geometry applies when the session was created without one", async () => {
    const s = (await ctx().createSession({ argv: ['/bin/sh'] })).session_id;
    const c = await ctx().attach(s);
    const flush = await joinSession(c, { role: 'controller', cols: 101, rows: 31 });
    expect([flush.keyframe.snapshot_cols, flush.keyframe.snapshot_rows]).toEqual([101, 31]);
    const from = c.mark();
    c.input('stty size\n');
    await c.collectOutput(/31 101/, 3000, from);
    // A later controller's geometry does not resize the session.
    const second = await ctx().attach(s);
    const f2 = await joinSession(second, { role: 'controller', cols: 50, rows: 10 });
    expect([f2.keyframe.snapshot_cols, f2.keyframe.snapshot_rows]).toEqual([101, 31]);
    await delay(200);
    expect(c.frames.slice(from).filter(is.kind('Resize'))).toHaveLength(0);
  });

  it('extension scenario 10: process exits → Closed with the exit code, then binding_goodbye on each connection', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s);
    await joinSession(ctl, { role: 'controller' });
    const obs = await ctx().attach(s);
    await joinSession(obs, { role: 'observer' });
    const bin = await ctx().attach(s, { protocols: [SUBPROTOCOL_BINARY] });
    await joinSession(bin, { role: 'observer' });
    ctl.input('exit 7\n');
    const closed = await Promise.all([ctl, obs, bin].map(expectClosedLifecycle));
    for (const c of closed) expect(c).toMatchObject({ kind: 'Closed', exit_code: 7, reason: 'normal' });
    const seqs = [ctl, obs, bin].map((c) => seqOf(c.frames.find(is.kind('Closed')) as Received));
    expect(new Set(seqs).size).toBe(1);
  });

  it('Closed follows the process exit promptly (< 2 s), also while other sessions run', async () => {
    const clients = await Promise.all(
      [0, 1, 2].map(async () => {
        const s = (await ctx().createSession(shell())).session_id;
        const c = await ctx().attach(s);
        await joinSession(c, { role: 'controller' });
        return c;
      }),
    );
    const started = Date.now();
    for (const c of clients) c.input('exit 5\n');
    const latencies = await Promise.all(
      clients.map(async (c) => {
        await c.waitFor(is.kind('Closed'), 8000);
        return Date.now() - started;
      }),
    );
    expect(Math.max(...latencies)).toBeLessThan(2000);
  });

  it('a process that exits on its own reports its exit code', async () => {
    const s = (await ctx().createSession({ argv: ['/bin/sh', '-c', 'sleep 0.7; exit 3'] })).session_id;
    const c = await ctx().attach(s);
    await joinSession(c, { role: 'observer' });
    expect(await expectClosedLifecycle(c)).toMatchObject({ exit_code: 3, reason: 'normal' });
  });

  it('DELETE /api/v1/sessions/{id} kills the process: Closed reason killed, then binding_goodbye and close 1000', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const a = await ctx().attach(s);
    await joinSession(a, { role: 'controller' });
    const b = await ctx().attach(s);
    await joinSession(b, { role: 'observer' });
    const del = await http(ctx().server, 'DELETE', `/api/v1/sessions/${s}`);
    expect([200, 202, 204]).toContain(del.status);
    for (const c of await Promise.all([a, b].map(expectClosedLifecycle))) expect(c.reason).toBe('killed');
    const after = await http(ctx().server, 'GET', `/api/v1/sessions/${s}`);
    if (after.status === 200) expect(JSON.stringify(after.body)).toMatch(/closed|killed/);
    else expect(after.status).toBe(404);
  });

  it('stopping the server sends binding_goodbye server_shutdown and closes every connection with 1000', async () => {
    const own = await TestContext.start();
    try {
      const s = (await own.createSession(shell())).session_id;
      const a = await own.attach(s);
      await joinSession(a, { role: 'controller' });
      const b = await own.attach(s, { protocols: [SUBPROTOCOL_BINARY] });
      const stopping = own.server.stop();
      for (const c of [a, b]) {
        const g = await c.waitFor(is.op('binding_goodbye'), 5000);
        expect(payloadOf<{ reason: string }>(jsonOf(g)).reason).toBe('server_shutdown');
        expect((await c.closed).code).toBe(1000);
      }
      await stopping;
    } finally {
      await own.dispose().catch(() => undefined);
    }
  });
});
