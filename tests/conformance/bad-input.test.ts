/**
 * Hostile and broken input: the server answers with the binding's errors (or a protocol-violation
 * close, §6), never writes rejected input to the PTY, and keeps serving everyone else.
 */
import { SUBPROTOCOL_BINARY, SUBPROTOCOL_JSON, newId, rfc3339 } from '@pty-ws/protocol';
import { delay, is, joinSession, type TestClient } from '@pty-ws/testkit';
import { expectAlive, expectBindingError, expectRequestError, jsonOf, marker, shell, useServer } from './support';

const MAX_FRAME = 64 * 1024;

/**
 * The reply to a frame the server could not accept: an INVALID_REQUEST Error, after which the
 * connection either stays usable or is closed as a protocol violation (4400).
 */
async function expectInvalid(c: TestClient, from: number, requestId?: string): Promise<void> {
  const r = await c.waitFor(is.error(), 3000, from);
  expectBindingError(jsonOf(r), 'INVALID_REQUEST', requestId);
  await delay(50);
  if (c.isOpen) await expectAlive(c);
  else expect((await c.closed).code).toBe(4400);
}

describe('bad input', () => {
  const ctx = useServer({ maxFrameBytes: MAX_FRAME, maxControllers: 32 });
  let sessionId = '';
  let watcher: TestClient;

  beforeAll(async () => {
    sessionId = (await ctx().createSession(shell())).session_id;
    watcher = await ctx().attach(sessionId);
    await joinSession(watcher, { role: 'controller', client_label: 'watcher' });
  });

  afterEach(async () => {
    // Whatever the test did, the server still serves the watcher: a command runs and echoes.
    const m = marker(`alive${Date.now() % 1000}`);
    const from = watcher.mark();
    watcher.input(m.cmd);
    await watcher.collectOutput(m.re, 3000, from);
  });

  const fresh = async (): Promise<TestClient> => ctx().attach(sessionId);

  it('malformed JSON → INVALID_REQUEST', async () => {
    const c = await fresh();
    const from = c.mark();
    c.sendRaw('{"op": "ping", "id": ');
    await expectInvalid(c, from);
  });

  it('JSON that is not a single object (array, concatenated objects, JSON Lines) → INVALID_REQUEST', async () => {
    for (const text of ['[1,2,3]', '"ping"', `{"op":"ping"}{"op":"ping"}`, `{"op":"ping"}\n{"op":"ping"}\n`]) {
      const c = await fresh();
      const from = c.mark();
      c.sendRaw(text);
      await expectInvalid(c, from);
    }
  });

  it('unknown op → UNSUPPORTED_OPERATION, and the connection stays up', async () => {
    const c = await fresh();
    await expectRequestError(c, 'NotAnOperation', {}, 'UNSUPPORTED_OPERATION');
    await expectRequestError(c, 'sendmessage', {}, 'UNSUPPORTED_OPERATION');
    await expectAlive(c);
  });

  it('wrong field types → INVALID_REQUEST with the request id echoed', async () => {
    const cases: Array<{ op: string; payload: unknown }> = [
      { op: 'GetTask', payload: { task_id: 42 } },
      { op: 'pty.session_resize', payload: { cols: '80', rows: 24 } },
      { op: 'pty.session_resize', payload: { cols: 80.5, rows: 24 } },
      { op: 'pty.session_input', payload: { data: 12345 } },
      { op: 'pty.join_session', payload: { role: 'superuser' } },
      { op: 'SendMessage', payload: { message: 'echo hi' } },
      { op: 'GetTask', payload: [] },
    ];
    const c = await fresh();
    await joinSession(c, { role: 'controller' });
    for (const k of cases) {
      const from = c.mark();
      const id = newId();
      c.sendRaw(JSON.stringify({ op: k.op, id, ts: rfc3339(), payload: k.payload }));
      const r = await c.waitFor(is.reply(id), 3000, from);
      expectBindingError(jsonOf(r), 'INVALID_REQUEST', id);
    }
    await expectAlive(c);
  });

  it('envelope fields of the wrong type (id, op, ts, replay_from, extensions) → INVALID_REQUEST', async () => {
    const bad: unknown[] = [
      { op: 'ping', id: 7, ts: rfc3339(), payload: {} },
      { op: 42, id: newId(), ts: rfc3339(), payload: {} },
      { op: 'ping', id: newId(), ts: 'yesterday', payload: {} },
      { op: 'ping', id: newId(), ts: rfc3339(), payload: 'x' },
      { op: 'ping', id: newId(), ts: rfc3339(), replay_from: 'ten', payload: {} },
      { op: 'ping', id: newId(), ts: rfc3339(), extensions: 'all', payload: {} },
    ];
    for (const f of bad) {
      const c = await fresh();
      const from = c.mark();
      c.sendRaw(JSON.stringify(f));
      await expectInvalid(c, from);
    }
  });

  it('a client-set sequence → INVALID_REQUEST (§3: clients MUST NOT set sequence)', async () => {
    const c = await fresh();
    const id = newId();
    const from = c.mark();
    c.sendRaw(JSON.stringify({ op: 'ping', id, ts: rfc3339(), sequence: 5, payload: { client_ts: rfc3339() } }));
    const r = await c.waitFor(is.reply(id), 3000, from);
    expectBindingError(jsonOf(r), 'INVALID_REQUEST', id);
  });

  it('PushNotificationConfig operations → UNSUPPORTED_OPERATION (§4.7)', async () => {
    const c = await fresh();
    for (const op of [
      'SetTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfig',
      'DeleteTaskPushNotificationConfig',
    ]) {
      await expectRequestError(c, op, { task_id: newId() }, 'UNSUPPORTED_OPERATION');
    }
    await expectAlive(c);
  });

  it('bad base64 in pty.session_input → INVALID_REQUEST and nothing reaches the PTY', async () => {
    const c = await fresh();
    await joinSession(c, { role: 'controller' });
    for (const data of ['!!!not base64!!!', 'ZWNobyBoaQ', 'ZW=N']) {
      await expectRequestError(c, 'pty.session_input', { data }, 'INVALID_REQUEST');
    }
    await expectAlive(c);
  });

  it('a frame bigger than maxFrameBytes → Error INVALID_REQUEST (request id echoed), then close 1009; others are served', async () => {
    const c = await fresh();
    const id = newId();
    const big = JSON.stringify({ op: 'ping', id, ts: rfc3339(), payload: { client_ts: 'x'.repeat(MAX_FRAME + 1024) } });
    c.sendRaw(big);
    const closed = await c.closed;
    expect(closed.code).toBe(1009);
    const errors = c.frames.filter(is.error());
    expect(errors).toHaveLength(1);
    expectBindingError(jsonOf(errors[0]!), 'INVALID_REQUEST', id);
    // New connections are still accepted.
    const again = await fresh();
    await expectAlive(again);
  });

  it('a binary frame bigger than maxFrameBytes is refused the same way, and never reaches the PTY', async () => {
    const bin = await ctx().attach(sessionId, { protocols: [SUBPROTOCOL_BINARY] });
    await joinSession(bin, { role: 'controller' });
    const m = marker('hugebinary');
    const watchFrom = watcher.mark();
    bin.inputBinary(Buffer.concat([Buffer.from(m.cmd), Buffer.alloc(MAX_FRAME, 0x20)]));
    expect((await bin.closed).code).toBe(1009);
    expectBindingError(jsonOf(bin.frames.find(is.error())!), 'INVALID_REQUEST');
    await delay(300);
    expect(watcher.outputSince(watchFrom).toString()).not.toMatch(m.re);
  });

  it('a frame beyond maxFrameBytes + 64 KiB is dropped by uWS without a close frame (1006, SECURITY.md)', async () => {
    const c = await fresh();
    c.sendRaw(
      JSON.stringify({ op: 'ping', id: newId(), ts: rfc3339(), payload: { client_ts: 'x'.repeat(5 * MAX_FRAME) } }),
    );
    expect((await c.closed).code).toBe(1006);
    expect(c.frames.filter(is.error())).toHaveLength(0);
    await expectAlive(await fresh());
  });

  it('a text frame that is not valid UTF-8 is dropped by uWS without a close frame (1006, not 1007: SECURITY.md)', async () => {
    const c = await fresh();
    await expectAlive(c);
    // ws sends a Buffer given with binary: false as a text frame, unvalidated.
    c.sendRaw(
      Buffer.concat([
        Buffer.from('{"op":"ping","id":"u","payload":{"client_ts":"'),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from('"}}'),
      ]),
      false,
    );
    expect((await c.closed).code).toBe(1006);
    await expectAlive(await fresh());
  });

  it('a frame just under maxFrameBytes is accepted', async () => {
    const c = await fresh();
    const ts = 'y'.repeat(MAX_FRAME - 2048);
    const id = newId();
    const from = c.mark();
    c.sendRaw(JSON.stringify({ op: 'ping', id, ts: rfc3339(), payload: { client_ts: ts } }));
    const r = await c.waitFor(is.reply(id), 3000, from);
    expect(jsonOf(r).op).not.toBe('Error');
  });

  it('binary frames with a wrong magic are rejected and not written to the PTY', async () => {
    const bin = await ctx().attach(sessionId, { protocols: [SUBPROTOCOL_BINARY] });
    await joinSession(bin, { role: 'controller' });
    const m = marker('wrongmagic');
    const from = bin.mark();
    const watchFrom = watcher.mark();
    bin.sendRaw(Buffer.concat([Buffer.from('PW1X'), Buffer.from(m.cmd)]), true);
    await expectInvalid(bin, from);
    await delay(300);
    expect(watcher.outputSince(watchFrom).toString()).not.toMatch(m.re);
  });

  it('binary input frames on a pty-ws.v1 (JSON) connection are rejected (§2.3)', async () => {
    const c = await ctx().attach(sessionId, { protocols: [SUBPROTOCOL_JSON] });
    await joinSession(c, { role: 'controller' });
    const m = marker('binonjson');
    const from = c.mark();
    const watchFrom = watcher.mark();
    c.sendRaw(Buffer.concat([Buffer.from('PW1I'), Buffer.from(m.cmd)]), true);
    await expectInvalid(c, from);
    await delay(300);
    expect(watcher.outputSince(watchFrom).toString()).not.toMatch(m.re);
  });

  it('frames after pty.leave_session are not acted on; the leaver gets binding_goodbye and close 1000', async () => {
    const c = await fresh();
    const flush = await joinSession(c, { role: 'controller', client_label: 'leaver' });
    const m = marker('afterleave');
    const watchFrom = watcher.mark();
    const from = c.mark();
    c.send('pty.leave_session', {});
    c.input(m.cmd);
    const closed = await c.closed;
    expect(closed.code).toBe(1000);
    expect(c.frames.slice(from).some(is.op('binding_goodbye'))).toBe(true);
    // The others learn that the leaver left.
    await watcher.waitFor(
      (r) => is.kind('MembershipChanged')(r) && !JSON.stringify(jsonOf(r).payload).includes(flush.clientId),
      3000,
      watchFrom,
    );
    await delay(400);
    expect(watcher.outputSince(watchFrom).toString()).not.toMatch(m.re);
  });

  it('a frame naming another session_id is rejected and not acted on (§11)', async () => {
    const c = await fresh();
    expect((await joinSession(c, { role: 'controller' })).roleAssigned.role).toBe('controller');
    const other = (await ctx().createSession(shell())).session_id;
    const m = marker('crosssession');
    const watchFrom = watcher.mark();
    const from = c.mark();
    const id = c.send('pty.session_input', { data: Buffer.from(m.cmd).toString('base64'), session_id: other });
    const r = await c.waitFor(is.reply(id), 3000, from);
    expect(jsonOf(r).op).toBe('Error');
    expect(['INVALID_REQUEST', 'PERMISSION_DENIED']).toContain((jsonOf(r).payload as { code: string }).code);
    await delay(300);
    expect(watcher.outputSince(watchFrom).toString()).not.toMatch(m.re);
    // The rejection may be fatal (a protocol violation, §6); then the close code says so.
    let user = c;
    if (!c.isOpen) {
      expect([4400, 4403]).toContain((await c.closed).code);
      user = await fresh();
      await joinSession(user, { role: 'controller' });
    }
    // Naming the bound session itself is fine.
    const ok = marker('samesession');
    const okFrom = user.mark();
    user.send('pty.session_input', { data: Buffer.from(ok.cmd).toString('base64'), session_id: sessionId });
    try {
      await watcher.collectOutput(ok.re, 3000, watchFrom);
    } catch (e) {
      throw new Error(
        `${String(e)}; client saw ${user.describe(okFrom)}, open=${String(user.isOpen)} close=${JSON.stringify(user.closeState)}`,
      );
    }
  });
});
