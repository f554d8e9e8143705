/** Roles, caps and membership (pty-extensions/v1 scenarios 1–5, role verbs). */
import type { ClientRef, SessionFramePayload } from '@pty-ws/protocol';
import { delay, is, joinSession, seqOf, sessionFrameOf, type Received, type TestClient } from '@pty-ws/testkit';
import { decodeSnapshot, expectRequestError, jsonOf, marker, shell, useServer } from './support';

type Membership = Extract<SessionFramePayload, { kind: 'MembershipChanged' }>;

function membershipOf(r: Received): Membership {
  const m = sessionFrameOf(r, 'MembershipChanged');
  if (!m) throw new Error('not a MembershipChanged frame');
  return m;
}

const ids = (refs: ClientRef[]): string[] => refs.map((r) => r.client_id).sort();

/** The next MembershipChanged after `from` on a client. */
async function nextMembership(c: TestClient, from: number): Promise<Received> {
  return c.waitFor(is.kind('MembershipChanged'), 3000, from);
}

describe('roles and membership', () => {
  const ctx = useServer({ maxControllers: 2, maxObservers: 3 });

  it('extension scenario 1: single controller — join, input, output, resize, leave; RoleAssigned, MembershipChanged, Keyframe in order', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const c = await ctx().attach(s);
    const flush = await joinSession(c, { role: 'controller', client_label: 'solo' });
    const kinds = flush.frames.map((r) => jsonOf(r).payload?.['kind']);
    expect(kinds).toEqual(['RoleAssigned', 'MembershipChanged', 'Keyframe']);
    expect(flush.roleAssigned).toMatchObject({ role: 'controller', client_id: expect.any(String) });
    expect(flush.roleAssigned.downgraded ?? false).toBe(false);
    const membership = membershipOf(flush.frames[1] as Received);
    expect(membership.controllers).toEqual([{ client_id: flush.clientId, label: 'solo' }]);
    expect(membership.observers).toEqual([]);
    expect(flush.keyframe.snapshot_format).toBe('vt100-screen-state-v1');
    expect(flush.keyframe.anchor_sequence).toBe(seqOf(flush.frames[1] as Received));
    expect([flush.keyframe.snapshot_cols, flush.keyframe.snapshot_rows]).toEqual([80, 24]);

    const m = marker('solo');
    let from = c.mark();
    c.input(m.cmd);
    await c.collectOutput(m.re, 3000, from);

    from = c.mark();
    c.send('pty.session_resize', { cols: 90, rows: 25 });
    const resize = await c.waitFor(is.kind('Resize'), 3000, from);
    expect(jsonOf(resize).payload).toEqual({ kind: 'Resize', cols: 90, rows: 25 });
    c.input('stty size\n');
    await c.collectOutput(/25 90/, 3000, from);

    c.send('pty.leave_session', {});
    expect((await c.closed).code).toBe(1000);
  });

  it('extension scenario 2: an observer cannot write — input and resize get PERMISSION_DENIED', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s);
    await joinSession(ctl, { role: 'controller' });
    const obs = await ctx().attach(s);
    const flush = await joinSession(obs, { role: 'observer' });
    expect(flush.roleAssigned.role).toBe('observer');
    const m = marker('observer_write');
    const from = ctl.mark();
    await expectRequestError(
      obs,
      'pty.session_input',
      { data: Buffer.from(m.cmd).toString('base64') },
      'PERMISSION_DENIED',
    );
    await expectRequestError(obs, 'pty.session_resize', { cols: 100, rows: 40 }, 'PERMISSION_DENIED');
    await delay(300);
    expect(ctl.outputSince(from).toString()).not.toMatch(m.re);
    expect(ctl.frames.slice(from).filter(is.kind('Resize'))).toHaveLength(0);
  });

  it('extension scenario 3: capacity downgrade — the (max_controllers+1)-th controller becomes observer, explicitly', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const c1 = await ctx().attach(s);
    const f1 = await joinSession(c1, { role: 'controller', client_label: 'c1' });
    const c2 = await ctx().attach(s);
    const f2 = await joinSession(c2, { role: 'controller', client_label: 'c2' });
    const c3 = await ctx().attach(s);
    const f3 = await joinSession(c3, { role: 'controller', client_label: 'c3' });
    expect(f1.roleAssigned.role).toBe('controller');
    expect(f2.roleAssigned.role).toBe('controller');
    expect(f3.roleAssigned.role).toBe('observer');
    expect(f3.roleAssigned.downgraded).toBe(true);
    expect(typeof f3.roleAssigned.reason).toBe('string');
    expect((f3.roleAssigned.reason ?? '').length).toBeGreaterThan(0);
    const snap = membershipOf(f3.frames.find(is.kind('MembershipChanged')) as Received);
    expect(ids(snap.controllers)).toEqual([f1.clientId, f2.clientId].sort());
    expect(ids(snap.observers)).toEqual([f3.clientId]);
    await expectRequestError(
      c3,
      'pty.session_input',
      { data: Buffer.from('true\n').toString('base64') },
      'PERMISSION_DENIED',
    );
  });

  it('pty.release_role and pty.request_role move control, with RoleAssigned, a MembershipChanged and a Keyframe', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const c1 = await ctx().attach(s);
    const f1 = await joinSession(c1, { role: 'controller' });
    const c2 = await ctx().attach(s);
    await joinSession(c2, { role: 'controller' });
    const c3 = await ctx().attach(s);
    const f3 = await joinSession(c3, { role: 'observer' });

    // Full: an observer asking for control stays observer.
    let from = c3.mark();
    c3.send('pty.request_role', { role: 'controller' });
    const refused = await c3.waitFor((r) => is.kind('RoleAssigned')(r) || is.error()(r), 3000, from);
    if (is.kind('RoleAssigned')(refused)) {
      expect(sessionFrameOf(refused, 'RoleAssigned')).toMatchObject({ role: 'observer', downgraded: true });
    }

    // c1 gives up control.
    from = c1.mark();
    const c3From = c3.mark();
    c1.send('pty.release_role', {});
    const released = await c1.waitFor(is.kind('RoleAssigned'), 3000, from);
    expect(sessionFrameOf(released, 'RoleAssigned')).toMatchObject({ role: 'observer', client_id: f1.clientId });
    const afterRelease = membershipOf(await nextMembership(c3, c3From));
    expect(ids(afterRelease.observers)).toContain(f1.clientId);
    await c1.waitFor(is.kind('Keyframe'), 3000, c1.frames.indexOf(released) + 1);
    await expectRequestError(
      c1,
      'pty.session_input',
      { data: Buffer.from('true\n').toString('base64') },
      'PERMISSION_DENIED',
    );

    // Now c3 can take it.
    from = c3.mark();
    c3.send('pty.request_role', { role: 'controller' });
    const granted = await c3.waitFor(is.kind('RoleAssigned'), 3000, from);
    expect(sessionFrameOf(granted, 'RoleAssigned')).toMatchObject({ role: 'controller', client_id: f3.clientId });
    expect(sessionFrameOf(granted, 'RoleAssigned')?.downgraded ?? false).toBe(false);
    await c3.waitFor(is.kind('Keyframe'), 3000, c3.frames.indexOf(granted) + 1);
    const m = marker('promoted');
    c3.input(m.cmd);
    await c3.collectOutput(m.re, 3000, from);
  });

  it('extension scenario 4: membership is broadcast to every attached client on join, leave and disconnect', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const a = await ctx().attach(s);
    const fa = await joinSession(a, { role: 'controller', client_label: 'alpha' });
    const b = await ctx().attach(s);
    let aFrom = a.mark();
    const fb = await joinSession(b, { role: 'observer', client_label: 'bravo' });
    const onA = await nextMembership(a, aFrom);
    const onB = fb.frames.find(is.kind('MembershipChanged')) as Received;
    expect(seqOf(onA)).toBe(seqOf(onB));
    expect(membershipOf(onA)).toEqual(membershipOf(onB));
    expect(membershipOf(onA).controllers).toEqual([{ client_id: fa.clientId, label: 'alpha' }]);
    expect(membershipOf(onA).observers).toEqual([{ client_id: fb.clientId, label: 'bravo' }]);

    const c = await ctx().attach(s);
    aFrom = a.mark();
    let bFrom = b.mark();
    const fc = await joinSession(c, { role: 'observer', client_label: 'charlie' });
    for (const [cl, f] of [
      [a, aFrom],
      [b, bFrom],
    ] as const) {
      const snap = membershipOf(await nextMembership(cl, f));
      expect(ids(snap.observers)).toEqual([fb.clientId, fc.clientId].sort());
    }

    // Orderly leave.
    aFrom = a.mark();
    bFrom = b.mark();
    c.send('pty.leave_session', {});
    for (const [cl, f] of [
      [a, aFrom],
      [b, bFrom],
    ] as const) {
      const snap = membershipOf(await nextMembership(cl, f));
      expect(ids(snap.observers)).toEqual([fb.clientId]);
    }

    // Abrupt disconnect.
    aFrom = a.mark();
    b.terminate();
    const gone = membershipOf(await nextMembership(a, aFrom));
    expect(gone.observers).toEqual([]);
    expect(ids(gone.controllers)).toEqual([fa.clientId]);
    // RoleAssigned goes only to the connection concerned.
    const roles = a.frames.map((r) => sessionFrameOf(r, 'RoleAssigned')).filter((x) => x !== undefined);
    expect(roles.map((r) => r.client_id)).toEqual([fa.clientId]);
  });

  it('binding_goodbye after pty.leave_session carries the final MembershipChanged sequence (leave, downgrade then leave)', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const holders = [await ctx().attach(s), await ctx().attach(s)];
    for (const h of holders) await joinSession(h, { role: 'controller' });
    const full = await ctx().attach(s);
    const flush = await joinSession(full, { role: 'controller' });
    expect(flush.roleAssigned).toMatchObject({ role: 'observer', downgraded: true });
    for (const c of [full, holders[0]!]) {
      const from = c.mark();
      c.send('pty.leave_session', {});
      expect((await c.closed).code).toBe(1000);
      const after = c.frames.slice(from);
      const goodbye = after.find(is.op('binding_goodbye')) as Received;
      const lastMembership = [...after].reverse().find(is.kind('MembershipChanged'));
      // docs/spec/README.md interpretation 1: the goodbye carries the last log frame written to the socket.
      if (lastMembership) expect(seqOf(goodbye)).toBe(seqOf(lastMembership));
      expect(seqOf(goodbye)).toBe(Math.max(...c.frames.map((r) => seqOf(r) ?? 0)));
    }
  });

  it('extension scenario 5: mid-session join — RoleAssigned, MembershipChanged, Keyframe (anchor ≥ 0), then live frames', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s);
    await joinSession(ctl, { role: 'controller' });
    const before = marker('earlier');
    ctl.input(before.cmd);
    await ctl.collectOutput(before.re);
    await ctl.settle(200);

    const late = await ctx().attach(s);
    const flush = await joinSession(late, { role: 'observer' });
    expect(flush.frames.map((r) => jsonOf(r).payload?.['kind'])).toEqual([
      'RoleAssigned',
      'MembershipChanged',
      'Keyframe',
    ]);
    expect(flush.keyframe.anchor_sequence).toBeGreaterThanOrEqual(0);
    expect(flush.keyframe.anchor_sequence).toBe(seqOf(flush.frames[1] as Received));
    expect(decodeSnapshot(flush.keyframe.snapshot)).toMatch(before.re);
    expect(late.outputSince(flush.from).length).toBe(0);

    const after = marker('later');
    const from = late.mark();
    ctl.input(after.cmd);
    await late.collectOutput(after.re, 3000, from);
    for (const r of late.frames.slice(from).filter(is.output()))
      expect(seqOf(r) as number).toBeGreaterThan(flush.keyframe.anchor_sequence);
  });

  it('observers over max_observers are not admitted as observers (caps are enforced)', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const admitted: string[] = [];
    for (let i = 0; i < 3; i++) {
      const o = await ctx().attach(s);
      admitted.push((await joinSession(o, { role: 'observer' })).clientId);
    }
    const extra = await ctx().attach(s);
    const from = extra.mark();
    extra.send('pty.join_session', { role: 'observer' });
    const outcome = await Promise.race([
      extra
        .waitFor((r) => is.kind('RoleAssigned')(r) || is.error()(r), 3000, from)
        .then((r) => (is.error()(r) ? 'error' : 'assigned')),
      extra.closed.then(() => 'closed'),
    ]);
    expect(['error', 'closed']).toContain(outcome);
    expect(admitted).toHaveLength(3);
  });

  it('client_label longer than 128 characters is refused (INVALID_REQUEST)', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const c = await ctx().attach(s);
    await expectRequestError(
      c,
      'pty.join_session',
      { role: 'observer', client_label: 'x'.repeat(129) },
      'INVALID_REQUEST',
    );
  });
});
