/**
 * Authentication at upgrade (binding §7.1, §11, scenario 6) and scope-based authorization
 * (§7.2, scenario 7; docs/spec/README.md interpretation 4).
 */
import { SUBPROTOCOL_JSON, newId, type Task } from '@pty-ws/protocol';
import { TestContext, delay, http, is, joinSession, tryUpgrade, type TestClient } from '@pty-ws/testkit';
import {
  awaitTerminal,
  expectAlive,
  expectRequestError,
  jsonOf,
  marker,
  payloadOf,
  shell,
  useServer,
  userMessage,
} from './support';

describe('authentication and scopes', () => {
  const ctx = useServer({ maxControllers: 4 });
  let sessionId = '';
  let otherSessionId = '';
  let observeToken = '';
  let controlToken = '';

  beforeAll(async () => {
    sessionId = (await ctx().createSession(shell())).session_id;
    otherSessionId = (await ctx().createSession(shell())).session_id;
    observeToken = (await ctx().mintToken({ scopes: ['pty:observe'], label: 'observer' })).token;
    controlToken = (await ctx().mintToken({ scopes: ['pty:control'], label: 'controller' })).token;
  });

  const url = (id = sessionId): string => ctx().server.attachUrl(id);

  describe('binding scenario 6: auth enforcement', () => {
    it('binding scenario 6: upgrade without a bearer is rejected with HTTP 401', async () => {
      expect((await tryUpgrade(url(), {})).status).toBe(401);
    });

    it('binding scenario 6: upgrade with an unknown bearer is rejected with HTTP 401', async () => {
      expect((await tryUpgrade(url(), { token: 'not-a-token' })).status).toBe(401);
      expect((await tryUpgrade(url(), { subprotocolToken: 'not-a-token' })).status).toBe(401);
      expect((await tryUpgrade(url(), { headers: { Authorization: 'Basic YWRtaW46YWRtaW4=' } })).status).toBe(401);
    });

    it('binding scenario 6: upgrade with an expired bearer is rejected with HTTP 401', async () => {
      const short = await ctx().mintToken({ scopes: ['pty:control'], ttl_seconds: 1, label: 'short' });
      expect((await tryUpgrade(url(), { token: short.token })).status).toBe(101);
      await delay(1300);
      expect((await tryUpgrade(url(), { token: short.token })).status).toBe(401);
    });

    it('binding scenario 6: upgrade with a revoked bearer is rejected with HTTP 401', async () => {
      const t = await ctx().mintToken({ scopes: ['pty:observe'], label: 'revoke-me' });
      expect((await tryUpgrade(url(), { token: t.token })).status).toBe(101);
      const del = await http(ctx().server, 'DELETE', `/api/v1/tokens/${t.token_id}`);
      expect([200, 204]).toContain(del.status);
      expect((await tryUpgrade(url(), { token: t.token })).status).toBe(401);
    });

    it('a token in the URL query string does not authenticate (§11)', async () => {
      const admin = encodeURIComponent(ctx().server.adminToken);
      for (const q of [`?token=${admin}`, `?access_token=${admin}`, `?bearer=${admin}`]) {
        expect((await tryUpgrade(url() + q, {})).status).toBe(401);
      }
    });

    it('a token minted for one session does not open another session', async () => {
      const t = await ctx().mintToken({ scopes: ['pty:control'], session_id: sessionId, label: 'one-session' });
      expect((await tryUpgrade(url(sessionId), { token: t.token })).status).toBe(101);
      expect([401, 403]).toContain((await tryUpgrade(url(otherSessionId), { token: t.token })).status);
    });
  });

  it('a token minted for another instance does not open this instance', async () => {
    const res = await http(ctx().server, 'POST', '/api/v1/tokens', {
      json: { scopes: ['pty:control'], instance_id: 'some-other-instance', label: 'elsewhere' },
    });
    if (res.status === 201 || res.status === 200) {
      const token = (res.body as { token: string }).token;
      expect([401, 403]).toContain((await tryUpgrade(url(), { token })).status);
    } else {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it('input before joining (no role yet) is refused and not written', async () => {
    const watcher = await ctx().attach(sessionId);
    await joinSession(watcher, { role: 'observer' });
    const c = await ctx().attach(sessionId, { token: controlToken });
    const m = marker('unjoined');
    const from = watcher.mark();
    const id = c.input(m.cmd);
    const r = await c.waitFor(is.reply(id), 3000);
    expect(jsonOf(r).op).toBe('Error');
    expect(['PERMISSION_DENIED', 'INVALID_REQUEST']).toContain(payloadOf<{ code: string }>(jsonOf(r)).code);
    await delay(300);
    expect(watcher.outputSince(from).toString()).not.toMatch(m.re);
  });

  describe('binding scenario 7: scoped control', () => {
    let controller: TestClient;

    beforeAll(async () => {
      controller = await ctx().attach(sessionId, { token: controlToken });
      const flush = await joinSession(controller, { client_label: 'ctl' });
      expect(flush.roleAssigned.role).toBe('controller');
      const m = marker('before_observer');
      controller.input(m.cmd);
      await controller.collectOutput(m.re);
    });

    it('binding scenario 7: pty:observe attaches, replays and watches, but cannot input, resize or take control', async () => {
      const obs = await ctx().attach(sessionId, { token: observeToken });
      const flush = await joinSession(obs, { role: 'observer' }, { replayFrom: 0 });
      expect(flush.roleAssigned.role).toBe('observer');
      // Replay from the start of the session shows what the controller did before we came.
      expect(obs.outputSince(flush.from).toString()).toMatch(marker('before_observer').re);
      // Live output reaches the observer.
      const live = marker('live_for_observer');
      const from = obs.mark();
      controller.input(live.cmd);
      await obs.collectOutput(live.re, 3000, from);
      // Keyframe requests are an observe permission.
      obs.send('pty.request_keyframe', {});
      await obs.waitFor(is.kind('Keyframe'), 1500, from);
      // Input, resize and controller requests are denied.
      const sneaky = marker('observer_typed');
      await expectRequestError(
        obs,
        'pty.session_input',
        { data: Buffer.from(sneaky.cmd).toString('base64') },
        'PERMISSION_DENIED',
      );
      await expectRequestError(obs, 'pty.session_resize', { cols: 100, rows: 30 }, 'PERMISSION_DENIED');
      await expectRequestError(obs, 'pty.request_role', { role: 'controller' }, 'PERMISSION_DENIED');
      await delay(300);
      expect(controller.outputSince(0).toString()).not.toMatch(sneaky.re);
      expect(obs.frames.filter(is.kind('Resize'))).toHaveLength(0);
      expect(
        obs.frames.some(
          (r) => is.kind('RoleAssigned')(r) && payloadOf<{ role: string }>(jsonOf(r)).role === 'controller',
        ),
      ).toBe(false);
    });

    it('binding scenario 7: a pty:observe join asking for the controller role never becomes controller', async () => {
      const obs = await ctx().attach(sessionId, { token: observeToken });
      const from = obs.mark();
      const id = obs.send('pty.join_session', { role: 'controller' });
      const first = await obs.waitFor(
        (r) => is.kind('RoleAssigned')(r) || (is.reply(id)(r) && is.error()(r)),
        3000,
        from,
      );
      const f = jsonOf(first);
      if (f.op === 'Error') expect(payloadOf<{ code: string }>(f).code).toBe('PERMISSION_DENIED');
      else expect(payloadOf<{ role: string }>(f).role).toBe('observer');
      await delay(200);
      expect(
        obs.frames.some(
          (r) => is.kind('RoleAssigned')(r) && payloadOf<{ role: string }>(jsonOf(r)).role === 'controller',
        ),
      ).toBe(false);
    });

    it('binding scenario 7: pty:control attaches can control the session (input and resize)', async () => {
      const m = marker('control_scope');
      const from = controller.mark();
      controller.input(m.cmd);
      await controller.collectOutput(m.re, 3000, from);
      controller.send('pty.session_resize', { cols: 90, rows: 20 });
      const r = await controller.waitFor(is.kind('Resize'), 3000, from);
      expect(r.type === 'json' && r.frame.payload).toMatchObject({ kind: 'Resize', cols: 90, rows: 20 });
    });
  });

  it('interpretation 4: pty.join_session without role → controller for pty:control, observer for pty:observe', async () => {
    const s = (await ctx().createSession(shell())).session_id;
    const ctl = await ctx().attach(s, { token: controlToken });
    expect((await joinSession(ctl, {})).roleAssigned.role).toBe('controller');
    const obs = await ctx().attach(s, { token: observeToken });
    expect((await joinSession(obs, {})).roleAssigned.role).toBe('observer');
    const admin = await ctx().attach(s);
    expect((await joinSession(admin, {})).roleAssigned.role).toBe('controller');
  });

  it('pty:observe may read tasks but not start or cancel them (task/control-plane reads only, §7.2)', async () => {
    const ctl = await ctx().attach(sessionId, { token: controlToken });
    const sent = await ctl.request('SendMessage', { message: userMessage('echo scoped') });
    expect(sent.op).toBe('SendMessage.Response');
    const taskId = payloadOf<{ task: Task }>(sent).task.id;
    await awaitTerminal(ctl, taskId);
    const obs = await ctx().attach(sessionId, { token: observeToken });
    expect((await obs.request('GetTask', { task_id: taskId })).op).toBe('GetTask.Response');
    expect((await obs.request('ListTasks', {})).op).toBe('ListTasks.Response');
    await expectRequestError(obs, 'SendMessage', { message: userMessage('echo nope') }, 'PERMISSION_DENIED');
    await expectRequestError(obs, 'SendStreamingMessage', { message: userMessage('echo nope') }, 'PERMISSION_DENIED');
    await expectAlive(obs);
  });
});

describe('PTYWS_AUTH=disabled (local harness)', () => {
  let ctx: TestContext;
  let sessionId = '';
  beforeAll(async () => {
    ctx = await TestContext.start({ authEnabled: false });
    sessionId = (await ctx.createSession(shell())).session_id;
  });
  afterAll(async () => ctx.dispose());

  it('accepts an absent subprotocol header and serves JSON frames', async () => {
    const c = await ctx.connect(sessionId, { protocols: null, anonymous: true });
    expect(c.protocolHeader).toBeUndefined();
    const hello = await c.hello();
    expect(hello.payload_mode.binary).toBe(false);
    const flush = await joinSession(c, {});
    expect(['controller', 'observer']).toContain(flush.roleAssigned.role);
    const m = marker('noauth');
    c.input(m.cmd);
    await c.collectOutput(m.re);
  });

  it('accepts a connection without a bearer and still refuses a header without a PTY token (400)', async () => {
    const url = ctx.server.attachUrl(sessionId);
    expect(await tryUpgrade(url, { protocols: [SUBPROTOCOL_JSON] })).toMatchObject({
      status: 101,
      protocolHeader: SUBPROTOCOL_JSON,
    });
    expect((await tryUpgrade(url, { protocols: ['chat'] })).status).toBe(400);
    expect((await tryUpgrade(ctx.server.attachUrl(newId()), {})).status).toBe(404);
  });
});
