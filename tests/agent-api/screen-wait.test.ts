/**
 * The screen as text (`GET /api/v1/sessions/{id}/screen`) and waiting on output
 * (`GET /api/v1/sessions/{id}/wait`), against a real server with real PTYs. Runs in both modes
 * (PTYWS_TEST_MODE=cluster: the screen comes from the owning agent over NATS).
 */
import { request, type ClientRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SessionScreen } from '@pty-ws/ports';
import { TestContext, http, waitUntil as pollUntil, type HttpResponse } from '@pty-ws/testkit';

/** Polls the REST API ten times a second: REST calls count against the principal's request rate. */
const waitUntil = <T>(check: () => Promise<T | undefined | false>, timeoutMs: number, what: string) =>
  pollUntil(check, timeoutMs, what, 100);

type Screen = SessionScreen & { session_id: string; format: string };

interface WaitAnswer {
  condition: 'match' | 'quiet' | 'timeout' | 'closed';
  matched: boolean;
  quiet: boolean;
  timed_out: boolean;
  closed: boolean;
  match: { text: string; seq: number; end_seq: number } | null;
  exit_code?: number | null;
  from_seq: number;
  last_seq: number;
  output: string;
  output_truncated: boolean;
}

const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8' };
let ctx: TestContext;
let dir: string;

beforeAll(async () => {
  ctx = await TestContext.start();
  dir = mkdtempSync(path.join(tmpdir(), 'ptyws-agent-api-'));
});
afterAll(async () => {
  await ctx?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A request left open until the server answers it or the test destroys it (the client going away). */
interface OpenRequest {
  req: ClientRequest;
  /** The server's answer, once it came. */
  answer?: { status: number; text: string };
}

function openRequest(url: string, token: string): OpenRequest {
  const { hostname: host, port } = new URL(ctx.server.httpUrl);
  const open: Partial<OpenRequest> = {};
  const headers = { authorization: `Bearer ${token}`, connection: 'close' }; // its own connection, none pooled
  const req = request({ host, port, path: url, headers, agent: false }, (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => (open.answer = { status: res.statusCode ?? 0, text }));
  });
  req.on('error', () => undefined);
  req.end();
  open.req = req;
  return open as OpenRequest;
}

/**
 * Nine waits of one principal opened at once, none answered before the first refusal. Only these
 * nine wait for this principal, so the first 429 'too many waits' shows that the other eight hold
 * their places (a probe wait sent meanwhile could hold a place for a moment and have one of the
 * eight refused instead).
 */
async function nineWaits(url: string, token: string): Promise<{ held: OpenRequest[] }> {
  const nine = Array.from({ length: 9 }, () => openRequest(url, token));
  const refused = await waitUntil(async () => nine.find((w) => w.answer), 10_000, 'an answer to one of nine waits');
  expect(refused.answer!.status).toBe(429);
  expect(refused.answer!.text).toContain('too many waits'); // the wait bound, not the request rate
  return { held: nine.filter((w) => w !== refused) };
}

function get(url: string, token?: string): Promise<HttpResponse> {
  return http(ctx.server, 'GET', url, token !== undefined ? { token } : {});
}

async function screen(id: string, query = ''): Promise<Screen> {
  const res = await get(`/api/v1/sessions/${id}/screen${query}`);
  if (res.status !== 200) throw new Error(`screen → ${res.status} ${res.text.slice(0, 300)}`);
  return res.body as Screen;
}

async function wait(id: string, query: string): Promise<WaitAnswer> {
  const res = await get(`/api/v1/sessions/${id}/wait?${query}`);
  if (res.status !== 200) throw new Error(`wait ${query} → ${res.status} ${res.text.slice(0, 300)}`);
  return res.body as WaitAnswer;
}

async function lastSeq(id: string): Promise<number> {
  const res = await get(`/api/v1/sessions/${id}`);
  return (res.body as { replay: { last_sequence: number } }).replay.last_sequence;
}

/**
 * A session that stays silent until the test says `go()`, then runs `script`; `AWAIT_MORE` in the
 * script waits for `more()`.
 */
async function onSignal(script: string): Promise<{ id: string; go: () => void; more: () => void }> {
  const signal = mkdtempSync(path.join(dir, 's-'));
  const awaitFile = (name: string) => `while [ ! -e ${signal}/${name} ]; do sleep 0.05; done`;
  const s = await ctx.createSession({
    argv: ['/bin/sh', '-c', `${awaitFile('go')}; ${script.replace('AWAIT_MORE', awaitFile('more'))}`],
    env: ENV,
    cols: 80,
    rows: 24,
  });
  const touch = (name: string) => () => writeFileSync(path.join(signal, name), '');
  return { id: s.session_id, go: touch('go'), more: touch('more') };
}

describe('screen', () => {
  it("reads vim's screen as text: wide characters once, the alternate screen, the title", async () => {
    const file = path.join(dir, 'wide.txt');
    writeFileSync(file, 'first line\nwide: 你好 end\nlast line\n');
    const s = await ctx.createSession({
      argv: ['/bin/sh', '-c', `printf '\\033]2;pty-title\\007'; exec vim -u NONE -N -n ${file}`],
      env: ENV,
      cols: 80,
      rows: 24,
    });
    const view = await waitUntil(
      async () => {
        const v = await screen(s.session_id);
        return v.lines.includes('last line') && v;
      },
      15_000,
      "vim's screen",
    );
    expect(view).toMatchObject({ cols: 80, rows: 24, alt_screen: true, title: 'pty-title', format: 'text' });
    expect(view.lines).toHaveLength(24);
    expect(view.lines.slice(0, 3)).toEqual(['first line', 'wide: 你好 end', 'last line']);
    expect(view.lines[3]).toBe('~');
    expect(view.cursor).toMatchObject({ x: 0, y: 0 });
    expect(view.seq).toBeGreaterThan(0);
  });

  it('format=ansi keeps colours as SGR sequences', async () => {
    const s = await ctx.createSession({
      argv: ['/bin/sh', '-c', `printf 'plain \\033[1;31mred\\033[0m 你 \\033[44mblue\\033[0m\\n'; exec sleep 60`],
      env: ENV,
    });
    const view = await waitUntil(
      async () => {
        const v = await screen(s.session_id, '?format=ansi');
        return v.lines[0]?.includes('blue') && v;
      },
      15_000,
      'the coloured line',
    );
    expect(view.format).toBe('ansi');
    expect(view.lines[0]).toBe('plain \x1b[0;1;31mred\x1b[0m 你 \x1b[0;44mblue\x1b[0m');
    expect((await screen(s.session_id)).lines[0]).toBe('plain red 你 blue');
  });

  it('refuses a bad format, a closed session, and other sessions to a session-bound token', async () => {
    const s = await ctx.createSession({ argv: ['/bin/sh', '-c', 'exec sleep 60'], env: ENV });
    const other = await ctx.createSession({ argv: ['/bin/sh', '-c', 'exec sleep 60'], env: ENV });
    expect((await get(`/api/v1/sessions/${s.session_id}/screen?format=html`)).status).toBe(400);
    const own = await ctx.mintToken({ scopes: ['pty:observe'], session_id: s.session_id });
    expect((await get(`/api/v1/sessions/${s.session_id}/screen`, own.token)).status).toBe(200);
    const missing = await get(`/api/v1/sessions/01900000-0000-7000-8000-000000000000/screen`, own.token);
    const elsewhere = await get(`/api/v1/sessions/${other.session_id}/screen`, own.token);
    expect(elsewhere.status).toBe(404);
    // The same answer as for a session that does not exist: the token learns nothing of others.
    const codeOf = (res: HttpResponse) => (res.body as { error: { code: string } }).error.code;
    expect(missing.status).toBe(404);
    expect(codeOf(elsewhere)).toBe(codeOf(missing));
    expect((await get(`/api/v1/sessions/${other.session_id}/wait?timeout_ms=10`, own.token)).status).toBe(404);
    expect((await get(`/api/v1/sessions/${s.session_id}/screen`, 'ptyws_not-a-token')).status).toBe(401);

    await http(ctx.server, 'DELETE', `/api/v1/sessions/${s.session_id}`);
    await waitUntil(async () => (await get(`/api/v1/sessions/${s.session_id}`)).body, 10_000, 'the session record');
    const ended = await waitUntil(
      async () => {
        const res = await get(`/api/v1/sessions/${s.session_id}/screen`);
        return res.status !== 200 && res;
      },
      10_000,
      'the screen refused after the end',
    );
    expect(ended.status).toBe(409);
  });
});

describe('audit', () => {
  it('screen reads and waits are recorded as disclosures', async () => {
    const s = await ctx.createSession({ argv: ['/bin/sh', '-c', 'exec sleep 60'], env: ENV });
    await screen(s.session_id, '?format=ansi');
    await wait(s.session_id, 'pattern=x&timeout_ms=1');
    const reads = await waitUntil(
      async () => {
        const res = await get(`/api/v1/audit?session_id=${s.session_id}`);
        const events = (res.body as { events: Array<{ type: string; disclosure: boolean; detail: object }> }).events;
        const found = events.filter((e) => e.type === 'transcript_read');
        return found.length >= 2 && found;
      },
      10_000,
      'two transcript_read events',
    );
    expect(reads.map((e) => e.detail)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ format: 'screen_ansi', via: 'http' }),
        expect.objectContaining({ format: 'wait', search: true, via: 'http' }),
      ]),
    );
    expect(reads.every((e) => e.disclosure)).toBe(true);
  });
});

describe('wait', () => {
  it('answers when a pattern is printed after the wait began (literal and regex)', async () => {
    const s = await onSignal(
      'sleep 0.3; printf "Listening on port \\033[32m%s\\033[0m\\n" $((6000+42)); exec sleep 60',
    );
    const from = await lastSeq(s.id);
    const literal = wait(s.id, `pattern=${encodeURIComponent('port 6042')}&from_seq=${from}&timeout_ms=20000`);
    const regex = wait(s.id, `pattern=${encodeURIComponent('^Listening on port \\d+$')}&regex=true&from_seq=${from}`);
    s.go();
    const [a, b] = await Promise.all([literal, regex]);
    expect(a).toMatchObject({ condition: 'match', matched: true, timed_out: false, closed: false });
    expect(a.match?.text).toBe('port 6042'); // the colour escapes are not part of the text
    expect(a.match!.seq).toBeGreaterThan(from);
    expect(a.output).toContain('Listening on port 6042');
    expect(b).toMatchObject({ condition: 'match', match: { text: 'Listening on port 6042' } });
  });

  it('matches a prompt without a newline (the line being written counts once output pauses)', async () => {
    const s = await onSignal('printf "name? "; exec sleep 60');
    const from = await lastSeq(s.id);
    const answer = wait(s.id, `pattern=${encodeURIComponent('name\\? $')}&regex=1&from_seq=${from}`);
    s.go();
    expect((await answer).match?.text).toBe('name? ');
  });

  it('output printed before the wait began does not count; the timeout answers 200 with what came', async () => {
    const s = await onSignal('echo OLD-OUTPUT; AWAIT_MORE; echo tick; exec sleep 60');
    const before = await lastSeq(s.id);
    s.go();
    const old = await waitUntil(
      async () => {
        const seq = await lastSeq(s.id);
        return seq > before && seq;
      },
      10_000,
      'the first output',
    );
    const answer = await wait(s.id, 'pattern=OLD-OUTPUT&timeout_ms=800');
    expect(answer).toMatchObject({ condition: 'timeout', timed_out: true, matched: false, match: null });
    expect(answer.output).toBe('');
    // Longer than an HTTP connection may idle (uWS: 10 s): the answer still comes.
    const pending = wait(s.id, `pattern=never-printed&from_seq=${old}&timeout_ms=12000`);
    s.more();
    const late = await pending;
    expect(late).toMatchObject({ condition: 'timeout', timed_out: true });
    expect(late.output).toBe('tick\r\n');
  }, 30_000);

  it('answers once the session is quiet', async () => {
    const s = await onSignal('for i in 1 2 3 4 5; do echo step-$i; sleep 0.1; done; exec sleep 60');
    const from = await lastSeq(s.id);
    const answer = wait(s.id, `quiet_ms=1000&from_seq=${from}&timeout_ms=20000`);
    s.go();
    const a = await answer;
    expect(a).toMatchObject({ condition: 'quiet', quiet: true, timed_out: false });
    expect(a.output).toContain('step-5');
  });

  it('answers closed (with the exit code) when the session ends before a match', async () => {
    const s = await onSignal('echo bye; exit 3');
    const from = await lastSeq(s.id);
    const answer = wait(s.id, `pattern=never-printed&from_seq=${from}&timeout_ms=20000`);
    s.go();
    const a = await answer;
    expect(a).toMatchObject({ condition: 'closed', closed: true, matched: false, exit_code: 3 });
    expect(a.output).toContain('bye');
    // A session that has ended answers at once.
    expect(await wait(s.id, 'pattern=x&timeout_ms=20000')).toMatchObject({ condition: 'closed' });
  });

  it('runs a catastrophic regex over a 100 KB line in linear time', async () => {
    // `(a+)+$` against a…ab backtracks exponentially in a backtracking engine (V8's would not
    // finish on 30 characters); RE2 answers on 100 000.
    const s = await onSignal("head -c 100000 /dev/zero | tr '\\0' a; echo b; echo done; exec sleep 60");
    const from = await lastSeq(s.id);
    const noMatch = wait(s.id, `pattern=${encodeURIComponent('(a+)+$')}&regex=1&from_seq=${from}&quiet_ms=500`);
    const match = wait(s.id, `pattern=${encodeURIComponent('(a+)+b$')}&regex=1&from_seq=${from}&timeout_ms=20000`);
    s.go();
    const [a, b] = await Promise.all([noMatch, match]);
    expect(a).toMatchObject({ condition: 'quiet', matched: false });
    expect(a.output).toContain('done');
    expect(a.output_truncated).toBe(true);
    expect(b.condition).toBe('match');
    expect(b.match!.text).toMatch(/^a{4096}$/); // the first 4096 characters of the match
  });

  it('bounds the waits open at once per principal: of nine, eight wait and the ninth is refused', async () => {
    const s = await onSignal('echo WAIT-MARK; exec sleep 60');
    const { token } = await ctx.mintToken({ scopes: ['pty:observe'], session_id: s.id });
    const from = await lastSeq(s.id); // the waits admitted see the mark however late they subscribe
    const { held } = await nineWaits(`/api/v1/sessions/${s.id}/wait?pattern=WAIT-MARK&from_seq=${from}`, token);
    // Another principal is not held back by this one's waits.
    expect((await wait(s.id, 'timeout_ms=1')).timed_out).toBe(true);
    s.go();
    const answers = await waitUntil(
      async () => held.every((w) => w.answer) && held.map((w) => w.answer!),
      15_000,
      'the eight waits answered',
    );
    const outcomes = answers.map((a) => `${a.status} ${(JSON.parse(a.text) as WaitAnswer).condition}`);
    expect(outcomes).toEqual(Array(8).fill('200 match'));
  });

  it("a client that goes away gives its wait's place back", async () => {
    const s = await ctx.createSession({ argv: ['/bin/sh', '-c', 'exec sleep 60'], env: ENV });
    const { token } = await ctx.mintToken({ scopes: ['pty:observe'], session_id: s.session_id });
    const url = `/api/v1/sessions/${s.session_id}/wait?pattern=never&timeout_ms=60000`;
    const { held } = await nineWaits(url, token);
    const status = async () => (await get(`/api/v1/sessions/${s.session_id}/wait?timeout_ms=1`, token)).status;
    expect(await status()).toBe(429); // all eight places are taken
    held[0]!.req.destroy();
    await waitUntil(async () => (await status()) === 200, 10_000, 'a wait admitted in the place given back');
    for (const w of held) w.req.destroy();
    expect(held.filter((w) => w.answer)).toEqual([]); // none of the eight ended on its own
  });

  it('refuses bad parameters', async () => {
    const s = await ctx.createSession({ argv: ['/bin/sh', '-c', 'exec sleep 60'], env: ENV });
    const status = async (q: string) => (await get(`/api/v1/sessions/${s.session_id}/wait?${q}`)).status;
    expect(await status(`pattern=${encodeURIComponent('(')}&regex=1`)).toBe(400);
    expect(await status(`pattern=${encodeURIComponent('a*')}&regex=1`)).toBe(400); // matches empty text
    expect(await status(`pattern=${'x'.repeat(1025)}`)).toBe(400);
    expect(await status('timeout_ms=0')).toBe(400);
    expect(await status('quiet_ms=abc')).toBe(400);
    expect(await status('regex=1')).toBe(400);
    expect(await status('colour=1')).toBe(400);
  });
});
