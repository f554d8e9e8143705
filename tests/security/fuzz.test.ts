/**
 * Hostile input against a live server: random and malformed frames on one session's socket,
 * random bodies on the REST API. Every answer must be a documented Error or close code, the
 * server must keep serving another session, and nothing of that session may leak to the fuzzer.
 */
import fc from 'fast-check';
import {
  BINDING_ERROR_CODES,
  CloseCode,
  SUPPORTED_OPERATIONS,
  SUBPROTOCOL_BINARY,
  SUBPROTOCOL_JSON,
} from '@pty-ws/protocol';
import { TestClient, TestContext, errorPayloadOf, http, is, joinSession, type Received } from '@pty-ws/testkit';

/** Close codes of binding §6, plus RFC 6455's own for frames the WebSocket layer refuses. */
const DOCUMENTED_CLOSES = new Set<number>([
  ...Object.values(CloseCode),
  1007, // invalid UTF-8 in a text frame
  1009, // message larger than PTYWS_MAX_FRAME_BYTES
]);
const DOCUMENTED_ERRORS = new Set<string>([
  ...BINDING_ERROR_CODES,
  'PTY_WRITE_FAILED',
  'PTY_RESIZE_FAILED',
  'PTY_OUTPUT_LAGGED',
  'KEYFRAME_UNAVAILABLE',
]);
const KNOWN_OPS = [
  ...SUPPORTED_OPERATIONS,
  'ping',
  'UpdateServiceParameters',
  'Unsubscribe',
  'pty.join_session',
  'pty.leave_session',
  'pty.session_input',
  'pty.session_resize',
  'pty.request_keyframe',
];
const SECRET = 'VICTIM';

/** A session whose terminal discards input in raw mode: fuzzed bytes can neither end nor drive it. */
const SINK = { argv: ['/bin/sh', '-c', 'stty raw -echo; exec cat > /dev/null'], cols: 80, rows: 24 };
const VICTIM = {
  argv: ['/bin/sh'],
  env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  cols: 80,
  rows: 24,
};

type Hostile = { text: string } | { bytes: Buffer; binary: boolean } | { flood: number } | { oversized: number };

const weird = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -1, 0, 1.5, '', '\u0000', 'x'.repeat(5000)),
);

function hostileFrames(victimId: string): fc.Arbitrary<Hostile> {
  const envelope = fc
    .record({
      op: fc.oneof(fc.constantFrom(...KNOWN_OPS), fc.string({ maxLength: 20 })),
      id: fc.oneof(fc.uuid(), fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null)),
      payload: fc.oneof(
        fc.jsonValue(),
        fc.record(
          {
            session_id: fc.oneof(fc.constant(victimId), weird),
            data: weird,
            cols: weird,
            rows: weird,
            role: fc.oneof(fc.constantFrom('controller', 'observer'), weird),
            task_id: weird,
            page_size: weird,
            message: weird,
          },
          { requiredKeys: [] },
        ),
      ),
      replay_from: weird,
      extensions: weird,
      service_parameters: weird,
    })
    .map((f) => ({ text: JSON.stringify(f) }));
  const deep = fc
    .constantFrom(10_000, 1_000)
    .map((n) => ({ text: `{"op":"ping","id":"d","payload":${'['.repeat(n)}${']'.repeat(n)}}` }));
  return fc.oneof(
    { weight: 4, arbitrary: envelope },
    { weight: 2, arbitrary: fc.jsonValue().map((v) => ({ text: JSON.stringify(v) ?? 'null' })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ text })) },
    { weight: 1, arbitrary: deep },
    // Invalid UTF-8 in a text frame.
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ minLength: 1, maxLength: 64 })
        .map((b) => ({ bytes: Buffer.concat([Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(b)]), binary: false })),
    },
    // Truncated, malformed or oversized binary frames.
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.uint8Array({ maxLength: 64 }).map((b) => ({ bytes: Buffer.from(b), binary: true })),
        fc.uint8Array({ maxLength: 8 }).map((b) => ({ bytes: Buffer.concat([Buffer.from('PW1'), b]), binary: true })),
        fc.constant({ oversized: 1024 * 1024 + 16 }),
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 50, max: 500 }).map((flood) => ({ flood })) },
  );
}

function send(c: TestClient, h: Hostile): void {
  if (!c.isOpen) return;
  if ('text' in h) c.sendRaw(h.text, false);
  else if ('bytes' in h) c.sendRaw(h.bytes, h.binary);
  // Built here, not in the arbitrary: a counterexample report must not print a megabyte.
  else if ('oversized' in h) c.sendRaw(Buffer.alloc(h.oversized, 0x41), true);
  else for (let i = 0; i < h.flood && c.isOpen; i++) c.send('ping', { client_ts: String(i) });
}

function textOf(r: Received): string {
  if (r.type === 'json') return r.raw;
  if (r.type === 'text') return r.text;
  return r.data.toString('latin1');
}

describe('hostile frames on a live socket', () => {
  let ctx: TestContext;
  let victim: TestClient;
  let sinkId = '';
  let victimId = '';
  let controlToken = '';
  let rounds = 0;

  beforeAll(async () => {
    ctx = await TestContext.start();
    sinkId = (await ctx.createSession(SINK)).session_id;
    victimId = (await ctx.createSession(VICTIM)).session_id;
    controlToken = (await ctx.mintToken({ scopes: ['pty:control'], label: 'fuzzer' })).token;
    victim = await ctx.attach(victimId);
    await joinSession(victim, { role: 'controller' });
  });
  afterAll(() => ctx.dispose());

  /** The other session still works: its shell echoes a fresh marker (arithmetic: not in the echo). */
  async function victimEchoes(): Promise<void> {
    rounds += 1;
    const from = victim.mark();
    victim.input(`echo ${SECRET}_$((${rounds}+1000))\n`);
    const want = `${SECRET}_${rounds + 1000}`;
    await victim.waitFor((r) => textOf(r).includes(want) || outputHas(r, want), 5000, from);
  }

  it('answers only with documented errors/closes, keeps serving, and leaks nothing', async () => {
    await victimEchoes();
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.constantFrom(SUBPROTOCOL_JSON, SUBPROTOCOL_BINARY),
        fc.array(hostileFrames(victimId), { minLength: 1, maxLength: 6 }),
        async (joinFirst, protocol, frames) => {
          const c = await ctx.connect(sinkId, { token: controlToken, protocols: [protocol] });
          try {
            await c.hello();
            if (joinFirst) await joinSession(c, { role: 'controller' });
            for (const f of frames) send(c, f);
            // A sentinel: once it is answered (or the socket closed) every frame before it was handled.
            if (c.isOpen) {
              const id = c.send('ping', {});
              // waitFor rejects when the socket closes first: the close is judged below instead.
              await Promise.race([c.waitFor(is.reply(id), 5000).catch(() => undefined), c.closed]);
            }
            for (const r of c.frames) {
              const err = errorPayloadOf(r);
              if (err) expect(DOCUMENTED_ERRORS).toContain(err.code);
              expect(textOf(r)).not.toContain(SECRET);
            }
            const closed = c.closeState;
            // uWS drops a connection without a close frame (1006) when a message exceeds
            // maxPayloadLength or a text frame is not UTF-8: WebSocket-layer violations, before our code.
            const dropped = frames.some((f) => 'oversized' in f || ('bytes' in f && !f.binary));
            if (closed) expect(dropped ? [...DOCUMENTED_CLOSES, 1006] : [...DOCUMENTED_CLOSES]).toContain(closed.code);
          } finally {
            c.terminate();
          }
          await victimEchoes();
        },
      ),
      { numRuns: 60, interruptAfterTimeLimit: 25_000 },
    );
  }, 40_000);
});

function outputHas(r: Received, want: string): boolean {
  if (r.type === 'binary') return r.data.includes(want);
  if (r.type !== 'json' || r.frame.op !== 'pty.session_frame') return false;
  const data = (r.frame.payload as { data?: unknown } | null)?.data;
  return typeof data === 'string' && Buffer.from(data, 'base64').toString('utf8').includes(want);
}

describe('hostile REST bodies', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start();
  });
  afterAll(() => ctx.dispose());

  const nonString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.dictionary(fc.string(), fc.integer()));
  const sessionBody = fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
    fc.string({ maxLength: 100 }),
    fc
      .record(
        {
          // Never a runnable argv or command: wrong types only, so the fuzzer starts no programs.
          argv: fc.oneof(nonString, fc.array(nonString, { maxLength: 3 }), fc.constant([]), fc.constant([''])),
          command: nonString,
          cwd: weird,
          env: fc.oneof(weird, fc.dictionary(fc.string({ maxLength: 10 }), weird, { maxKeys: 3 })),
          cols: weird,
          rows: weird,
          session_backend: weird,
          session_class: weird,
        },
        { requiredKeys: [] },
      )
      .filter((b) => Object.keys(b).length > 0)
      .map((b) => JSON.stringify(b)),
  );
  const tokenBody = fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
    fc
      .record(
        {
          scopes: fc.oneof(weird, fc.array(weird, { maxLength: 3 })),
          instance_id: weird,
          session_id: weird,
          ttl_seconds: weird,
          label: weird,
        },
        { requiredKeys: [] },
      )
      .map((b) => JSON.stringify(b)),
  );

  async function check(path: string, rawBody: string): Promise<void> {
    const res = await http(ctx.server, 'POST', path, { rawBody });
    expect(res.status).toBeLessThan(500);
    if (res.status >= 400) {
      const code = (res.body as { error?: { code?: string } } | undefined)?.error?.code;
      expect(BINDING_ERROR_CODES).toContain(code);
    } else if (path.endsWith('/sessions')) {
      // A body that happens to be valid (e.g. {}) made a session: remove it again.
      const id = (res.body as { session_id: string }).session_id;
      await http(ctx.server, 'DELETE', `/api/v1/sessions/${encodeURIComponent(id)}`);
    }
  }

  it('POST /api/v1/sessions answers 4xx JSON (never 5xx, never a hang)', async () => {
    await fc.assert(
      fc.asyncProperty(sessionBody, (b) => check('/api/v1/sessions', b)),
      { numRuns: 80 },
    );
  });

  it('POST /api/v1/tokens answers 4xx JSON (never 5xx, never a hang)', async () => {
    await fc.assert(
      fc.asyncProperty(tokenBody, (b) => check('/api/v1/tokens', b)),
      { numRuns: 80 },
    );
  });
});
