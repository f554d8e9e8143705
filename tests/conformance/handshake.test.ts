/**
 * Connection set-up: binding_hello (binding §5.1, scenario 1), subprotocol negotiation (§2.2,
 * scenario 8), the attach URL and its 404s (§2.1).
 */
import {
  BINDING_URI,
  CORE_OPERATIONS,
  EXTENSION_URI,
  SUBPROTOCOL_BINARY,
  SUBPROTOCOL_JSON,
  isUuidV7,
  newId,
  type BindingHelloPayload,
} from '@pty-ws/protocol';
import { is, joinSession, tryUpgrade, type Received } from '@pty-ws/testkit';
import { jsonOf, shell, useServer } from './support';

describe('handshake', () => {
  const ctx = useServer();
  let sessionId = '';

  beforeAll(async () => {
    sessionId = (await ctx().createSession(shell())).session_id;
  });

  it('binding scenario 1: binding_hello is the first frame and advertises all six core operations', async () => {
    const c = await ctx().connect(sessionId);
    const first = jsonOf(await c.waitFor(is.any(), 3000));
    expect(first.op).toBe('binding_hello');
    expect(first.sequence).toBe(0);
    expect(isUuidV7(first.id)).toBe(true);
    expect(Number.isNaN(Date.parse(first.ts))).toBe(false);
    const hello = first.payload as unknown as BindingHelloPayload;
    expect(hello.binding_uri).toBe(BINDING_URI);
    expect(hello.binding_version).toBe('1.0.0');
    for (const op of CORE_OPERATIONS) expect(hello.supported_operations).toContain(op);
    expect(hello.session.session_id).toBe(sessionId);
    expect(Number.isInteger(hello.session.current_sequence)).toBe(true);
    expect(hello.activated_extensions).toContain(EXTENSION_URI);

    // Only one binding_hello, even after client frames.
    await joinSession(c, {});
    await c.request('ping', { client_ts: new Date().toISOString() });
    expect(c.frames.filter(is.op('binding_hello'))).toHaveLength(1);
  });

  it('binding_hello comes first even when the client sends a frame at once (§5.1)', async () => {
    const c = await ctx().connect(sessionId);
    const id = c.send('ping', { client_ts: new Date().toISOString() });
    await c.waitFor(is.reply(id), 3000);
    expect(jsonOf(c.frames[0] as Received).op).toBe('binding_hello');
  });

  it('binding_hello carries session_host (§5.1.1) and payload_mode for a JSON connection', async () => {
    const c = await ctx().connect(sessionId);
    const hello = await c.hello();
    expect(hello.session_host).toEqual(
      expect.objectContaining({
        default_backend: 'native',
        default_class: 'direct',
        observe_supported: true,
        drive_supported: true,
        reattach_supported: expect.any(Boolean),
      }),
    );
    expect(hello.session_host.supported_backends).toContain('native');
    expect(hello.session_host.supported_classes).toContain('direct');
    expect(hello.payload_mode).toEqual({
      binary: false,
      binary_subprotocol: SUBPROTOCOL_BINARY,
      json_subprotocol: SUBPROTOCOL_JSON,
    });
  });

  it('binding_hello reports payload_mode.binary = true on a pty-ws.v1.binary connection', async () => {
    const c = await ctx().connect(sessionId, { protocols: [SUBPROTOCOL_BINARY] });
    const hello = await c.hello();
    expect(c.protocolHeader).toBe(SUBPROTOCOL_BINARY);
    expect(hello.payload_mode.binary).toBe(true);
  });

  describe('binding scenario 8: subprotocol negotiation', () => {
    const url = (): string => ctx().server.attachUrl(sessionId);
    const token = (): string => ctx().server.adminToken;

    it('binding scenario 8: echoes only pty-ws.v1 for a JSON connection', async () => {
      const r = await tryUpgrade(url(), { protocols: [SUBPROTOCOL_JSON], token: token() });
      expect(r).toMatchObject({ status: 101, protocolHeader: SUBPROTOCOL_JSON });
    });

    it('binding scenario 8: echoes only pty-ws.v1.binary for a binary connection', async () => {
      const r = await tryUpgrade(url(), { protocols: [SUBPROTOCOL_BINARY], token: token() });
      expect(r).toMatchObject({ status: 101, protocolHeader: SUBPROTOCOL_BINARY });
    });

    it('binding scenario 8: picks one token when both PTY tokens are offered and echoes only it', async () => {
      const r = await tryUpgrade(url(), { protocols: [SUBPROTOCOL_JSON, SUBPROTOCOL_BINARY], token: token() });
      expect(r.status).toBe(101);
      expect([SUBPROTOCOL_JSON, SUBPROTOCOL_BINARY]).toContain(r.protocolHeader);
    });

    it('binding scenario 8: ignores unknown tokens next to a supported one', async () => {
      const r = await tryUpgrade(url(), { protocols: ['chat.v2', SUBPROTOCOL_JSON], token: token() });
      expect(r).toMatchObject({ status: 101, protocolHeader: SUBPROTOCOL_JSON });
    });

    it('binding scenario 8: refuses a header without a supported PTY token with HTTP 400', async () => {
      expect((await tryUpgrade(url(), { protocols: ['chat.v2'], token: token() })).status).toBe(400);
      expect((await tryUpgrade(url(), { protocols: ['pty-ws.v2', 'pty-ws'], token: token() })).status).toBe(400);
    });

    it('binding scenario 8: a header holding only a bearer token has no PTY token → HTTP 400', async () => {
      const r = await tryUpgrade(url(), { protocols: [], subprotocolToken: token() });
      expect(r.status).toBe(400);
    });

    it('bearer.<base64url> subprotocol authenticates and is stripped from the echo (§7.1)', async () => {
      const json = await tryUpgrade(url(), { protocols: [SUBPROTOCOL_JSON], subprotocolToken: token() });
      expect(json).toMatchObject({ status: 101, protocolHeader: SUBPROTOCOL_JSON });
      const bin = await tryUpgrade(url(), { protocols: [SUBPROTOCOL_BINARY], subprotocolToken: token() });
      expect(bin).toMatchObject({ status: 101, protocolHeader: SUBPROTOCOL_BINARY });
    });

    it('with auth enabled, an absent subprotocol header is refused (§2.2 production rule)', async () => {
      const r = await tryUpgrade(url(), { protocols: null, token: token() });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    });
  });

  it('404 at upgrade for an unknown session (§2.1)', async () => {
    const r = await tryUpgrade(ctx().server.attachUrl(newId()), { token: ctx().server.adminToken });
    expect(r.status).toBe(404);
  });

  it('404 at upgrade for an unknown instance', async () => {
    const r = await tryUpgrade(ctx().server.attachUrl(sessionId, 'no-such-instance'), {
      token: ctx().server.adminToken,
    });
    expect(r.status).toBe(404);
  });

  it('the session_id in the attach URL is bound to the connection (hello names it)', async () => {
    const other = (await ctx().createSession(shell())).session_id;
    const c = await ctx().connect(other);
    expect((await c.hello()).session.session_id).toBe(other);
  });
});
