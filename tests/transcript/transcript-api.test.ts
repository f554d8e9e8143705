/**
 * The transcript API (`GET /api/v1/sessions/{id}/transcript`) over the hot log plus the transcript
 * archive, and the sessions API's members and replay counters. Runs in both modes
 * (PTYWS_TEST_MODE=cluster: Postgres archive, JetStream log).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TestContext, http, isRecord, joinSession, waitUntil as pollUntil, type HttpResponse } from '@pty-ws/testkit';

/** Polls the REST API ten times a second: REST calls count against the principal's request rate (30/s). */
const waitUntil = <T>(check: () => Promise<T | undefined | false>, timeoutMs: number, what: string) =>
  pollUntil(check, timeoutMs, what, 100);

interface Frame {
  sequence: number;
  kind: string;
  source: 'log' | 'archive';
  stream?: string;
  data?: string;
  text?: string;
  payload?: Record<string, unknown>;
}

interface Transcript {
  session_id: string;
  first_seq: number;
  last_seq: number;
  hot_first_seq: number;
  from_seq: number;
  to_seq: number;
  frames: Frame[];
  matches?: Array<{ start_seq: number; end_seq: number; text: string; before: string; after: string }>;
  truncated: boolean;
  next_from_seq: number | null;
}

const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', PS1: '$ ' };
let ctx: TestContext;

beforeAll(async () => {
  // A tiny replay window: most of a session lives only in the archive.
  ctx = await TestContext.start({ replayFrames: 5, replayRetentionS: 0, keyframeIntervalFrames: 1000 });
});
afterAll(async () => {
  await ctx?.dispose();
});

async function transcript(sessionId: string, query = '', token?: string | null): Promise<HttpResponse> {
  return http(
    ctx.server,
    'GET',
    `/api/v1/sessions/${sessionId}/transcript${query}`,
    token !== undefined ? { token } : {},
  );
}

async function transcriptOk(sessionId: string, query = ''): Promise<Transcript> {
  const res = await transcript(sessionId, query);
  if (res.status !== 200) throw new Error(`transcript ${query} → ${res.status} ${res.text.slice(0, 300)}`);
  return res.body as Transcript;
}

const outputText = (t: Transcript): string =>
  Buffer.concat(t.frames.filter((f) => f.kind === 'Output').map((f) => Buffer.from(f.data ?? '', 'base64'))).toString(
    'utf8',
  );

async function session(sessionId: string): Promise<Record<string, unknown>> {
  const res = await http(ctx.server, 'GET', `/api/v1/sessions/${sessionId}`);
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown>;
}

/** 120 numbered lines, a few frames apart, then quiet. */
async function longSession(): Promise<string> {
  const s = await ctx.createSession({
    argv: [
      '/bin/sh',
      '-c',
      'i=1; while [ $i -le 120 ]; do echo "line-$i"; i=$((i+1)); sleep 0.005; done; exec sleep 60',
    ],
    env: ENV,
    cols: 80,
    rows: 24,
  });
  await waitUntil(
    async () => outputText(await transcriptOk(s.session_id, '?limit=10000')).includes('line-120'),
    15_000,
    'line-120 in the transcript',
  );
  return s.session_id;
}

describe('transcript API', () => {
  let id: string;
  beforeAll(async () => {
    id = await longSession();
  });

  it('is complete and gapless although the replay log kept only its last frames', async () => {
    // Wait until the owner has archived and evicted: the log then starts well past 1.
    await waitUntil(
      async () => (await transcriptOk(id, '?limit=1')).hot_first_seq > 20,
      15_000,
      'eviction from the replay log',
    );
    const t = await transcriptOk(id, '?limit=10000');
    expect(t.first_seq).toBe(1);
    expect(t.frames.map((f) => f.sequence)).toEqual(Array.from({ length: t.to_seq }, (_, i) => i + 1));
    expect(t.frames.some((f) => f.source === 'archive')).toBe(true);
    const lines = outputText(t).match(/line-\d+/g) ?? [];
    expect(lines).toEqual(Array.from({ length: 120 }, (_, i) => `line-${i + 1}`));
    expect(t.truncated).toBe(false);
    expect(t.next_from_seq).toBeNull();
  });

  it('a burst larger than the archiver holds is archived whole (what it let go of is read back from the log)', async () => {
    const bytes = 6_000_000; // past the archiver's 4 MiB: most of it waits in the log only
    const s = await ctx.createSession({
      argv: ['/bin/sh', '-c', `head -c ${bytes} /dev/zero | tr '\\0' x; echo; echo BURST-END; exec sleep 60`],
      env: ENV,
      cols: 80,
      rows: 24,
    });
    const archived = await waitUntil(
      async () => {
        const t = await transcriptOk(s.session_id, '?limit=10000');
        const end = t.frames.findIndex(
          (f) => f.kind === 'Output' && outputText({ ...t, frames: [f] }).includes('BURST-END'),
        );
        // Archived and evicted: only the last few frames are still the log's.
        return end >= 0 && t.hot_first_seq > (t.frames[end]?.sequence ?? Infinity) - 5 && t;
      },
      30_000,
      'the burst archived and evicted from the replay log',
    );
    expect(archived.frames.map((f) => f.sequence)).toEqual(
      Array.from({ length: archived.to_seq - archived.from_seq + 1 }, (_, i) => archived.from_seq + i),
    );
    expect(archived.frames.filter((f) => f.source === 'archive').length).toBeGreaterThan(20);
    expect(outputText(archived).match(/x/g)?.length).toBe(bytes);
  });

  it('pages with from_seq, to_seq and limit', async () => {
    const page = await transcriptOk(id, '?from_seq=3&limit=4');
    expect(page.frames.map((f) => f.sequence)).toEqual([3, 4, 5, 6]);
    expect(page.truncated).toBe(true);
    expect(page.next_from_seq).toBe(7);
    const range = await transcriptOk(id, '?from_seq=10&to_seq=12');
    expect(range.frames.map((f) => f.sequence)).toEqual([10, 11, 12]);
    expect(range.truncated).toBe(false);
  });

  it('filters by stream: only Output frames of that stream', async () => {
    const all = await transcriptOk(id, '?limit=10000');
    const out = await transcriptOk(id, '?stream=stdout&limit=10000');
    expect(out.frames.length).toBeGreaterThan(0);
    expect(out.frames.every((f) => f.kind === 'Output' && f.stream === 'stdout')).toBe(true);
    expect(out.frames.length).toBe(all.frames.filter((f) => f.kind === 'Output').length);
    expect((await transcriptOk(id, '?stream=stderr')).frames).toEqual([]);
  });

  it('q finds text in archived frames and reports the frames a match spans', async () => {
    const t = await transcriptOk(id, '?q=line-7%0D%0Aline-8');
    expect(t.matches).toHaveLength(1);
    const m = t.matches![0]!;
    expect(m.text).toBe('line-7\r\nline-8');
    expect(m.start_seq).toBeLessThanOrEqual(m.end_seq);
    const spanned = t.frames.map((f) => f.sequence);
    expect(spanned[0]).toBe(m.start_seq);
    expect(spanned.at(-1)).toBe(m.end_seq);
    expect(Buffer.concat(t.frames.map((f) => Buffer.from(f.data ?? '', 'base64'))).toString()).toContain('line-7');
    expect((await transcriptOk(id, '?pattern=line-11')).matches?.map((x) => x.text)).toEqual(
      Array.from({ length: 11 }, () => 'line-11'), // line-11 and line-110 … line-119
    );
    expect((await transcriptOk(id, '?q=no-such-text')).matches).toEqual([]);
  });

  it('answers 400 for bad parameters, naming them', async () => {
    for (const [query, name] of [
      ['?from_seq=abc', 'from_seq'],
      ['?to_seq=-1', 'to_seq'],
      ['?from_seq=9&to_seq=3', 'to_seq'],
      ['?stream=stdin', 'stream'],
      ['?limit=0', 'limit'],
      ['?limit=100000', 'limit'],
      ['?q=', 'q'],
      ['?format=html', 'format'],
      ['?color=1', 'color'],
      ['?q=a&format=asciicast', 'q'],
    ] as const) {
      const res = await transcript(id, query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(JSON.stringify(res.body)).toContain(name);
    }
  });

  it('answers 404 for an unknown session and 401 without a token', async () => {
    expect((await transcript('01900000-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await transcript(id, '', null)).status).toBe(401);
  });

  it('needs pty:observe on that session', async () => {
    const own = await ctx.mintToken({ scopes: ['pty:observe'], session_id: id });
    expect((await transcript(id, '?limit=1', own.token)).status).toBe(200);
    const other = await ctx.createSession({ argv: ['/bin/sh', '-c', 'exec sleep 60'], env: ENV });
    const elsewhere = await ctx.mintToken({ scopes: ['pty:observe'], session_id: other.session_id });
    // Another session's transcript: the same answer as a session that does not exist.
    expect((await transcript(id, '?limit=1', elsewhere.token)).status).toBe(404);
    expect((await transcript('01900000-0000-7000-8000-000000000000', '?limit=1', elsewhere.token)).status).toBe(404);
    // Not an admin endpoint: the sessions list stays admin-only.
    expect((await http(ctx.server, 'GET', '/api/v1/sessions', { token: own.token })).status).toBe(403);
  });
});

describe('text across frame boundaries', () => {
  it('q matches a word split over two Output frames', async () => {
    const s = await ctx.createSession({
      argv: ['/bin/sh', '-c', "printf 'split-he'; sleep 0.3; printf 'llo-word\\n'; exec sleep 60"],
      env: ENV,
    });
    await waitUntil(
      async () => outputText(await transcriptOk(s.session_id)).includes('llo-word'),
      10_000,
      'the second half',
    );
    const t = await transcriptOk(s.session_id, '?q=split-hello');
    expect(t.matches).toHaveLength(1);
    expect(t.matches![0]!.start_seq).toBeLessThan(t.matches![0]!.end_seq);
    expect(t.frames.map((f) => f.text).join('')).toContain('split-hello');
  });

  it('ignores colour escapes inside the text', async () => {
    const s = await ctx.createSession({
      argv: ['/bin/sh', '-c', "printf 'red\\033[31malert\\033[0m-done\\n'; exec sleep 60"],
      env: ENV,
    });
    await waitUntil(async () => outputText(await transcriptOk(s.session_id)).includes('-done'), 10_000, 'output');
    expect((await transcriptOk(s.session_id, '?q=redalert-done')).matches).toHaveLength(1);
  });
});

describe('closed sessions and asciicast', () => {
  it('a killed session keeps its transcript, ending in Closed', async () => {
    const s = await ctx.createSession({ argv: ['/bin/sh', '-c', 'echo before-kill; exec sleep 60'], env: ENV });
    await waitUntil(async () => outputText(await transcriptOk(s.session_id)).includes('before-kill'), 10_000, 'output');
    expect((await http(ctx.server, 'DELETE', `/api/v1/sessions/${s.session_id}`)).status).toBe(200);
    await waitUntil(
      async () => (await transcriptOk(s.session_id)).frames.at(-1)?.kind === 'Closed',
      10_000,
      'Closed in the transcript',
    );
    const t = await transcriptOk(s.session_id);
    expect(outputText(t)).toContain('before-kill');
    expect(t.frames.at(-1)?.payload).toMatchObject({ kind: 'Closed', reason: 'killed' });
  });

  it('exports asciicast v2: header with the starting size, relative times, o and r events', async () => {
    const s = await ctx.createSession({ argv: ['/bin/sh'], env: ENV, cols: 90, rows: 20 });
    const c = await ctx.attach(s.session_id);
    const flush = await joinSession(c, { role: 'controller', cols: 100, rows: 30 });
    c.input('echo cast-$((40+2))\n');
    await c.collectOutput(/cast-42/, 5000, flush.from);
    await waitUntil(
      async () => outputText(await transcriptOk(s.session_id)).includes('cast-42'),
      10_000,
      'output in the transcript',
    );
    const res = await transcript(s.session_id, '?format=asciicast');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-asciicast');
    expect(res.text.endsWith('\n')).toBe(true);
    const lines = res.text.slice(0, -1).split('\n');
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(header).toMatchObject({ version: 2, width: 90, height: 20 });
    expect(typeof header['timestamp']).toBe('number');
    const events = lines.slice(1).map((l) => JSON.parse(l) as [number, string, string]);
    expect(events.length).toBeGreaterThan(1);
    let last = 0;
    for (const [t, code, data] of events) {
      expect(typeof t).toBe('number');
      expect(t).toBeGreaterThanOrEqual(last);
      expect(['o', 'r']).toContain(code);
      expect(typeof data).toBe('string');
      last = t;
    }
    expect(events[0]![0]).toBeLessThan(1); // relative to the first frame
    expect(events.filter((e) => e[1] === 'r').map((e) => e[2])).toEqual(['100x30']);
    // A standard player reads it: asciinema's own parser prints the recording's output.
    const cast = path.join(mkdtempSync(path.join(tmpdir(), 'ptyws-cast-')), 'session.cast');
    writeFileSync(cast, res.text);
    if (!existsSync('/usr/bin/asciinema')) throw new Error('asciinema missing: apt-get install asciinema');
    // `asciinema cat` insists on a terminal: `script` gives it one.
    const played = spawnSync('script', ['-q', '-e', '-c', `asciinema cat ${cast}`, '/dev/null'], {
      encoding: 'utf8',
      timeout: 20_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(played.status).toBe(0);
    expect(played.stdout).toContain('cast-42');
    rmSync(path.dirname(cast), { recursive: true, force: true });
    expect(
      events
        .filter((e) => e[1] === 'o')
        .map((e) => e[2])
        .join(''),
    ).toContain('cast-42');
  });
});

describe('sessions API counters', () => {
  it('shows live members and replay counters', async () => {
    const s = await ctx.createSession({
      argv: ['/bin/sh', '-c', 'i=1; while [ $i -le 40 ]; do echo "n-$i"; i=$((i+1)); sleep 0.01; done; exec sleep 60'],
      env: ENV,
    });
    const ctl = await ctx.attach(s.session_id);
    await joinSession(ctl, { role: 'controller' });
    const obs = await ctx.attach(s.session_id);
    await joinSession(obs, { role: 'observer' });
    await waitUntil(
      async () => {
        const m = (await session(s.session_id))['members'];
        return isRecord(m) && m['controllers'] === 1 && m['observers'] === 1;
      },
      5000,
      'members 1/1',
    );
    await waitUntil(
      async () => {
        const r = (await session(s.session_id))['replay'] as Record<string, number | boolean>;
        return r['overflowed'] === true && (r['frames_archived'] as number) > 20;
      },
      15_000,
      'overflow and archive counters',
    );
    const replay = (await session(s.session_id))['replay'] as Record<string, number | boolean>;
    expect(replay['frames_retained']).toBe(
      (replay['last_sequence'] as number) - (replay['first_sequence'] as number) + 1,
    );
    expect(replay['evicted_frames']).toBe((replay['first_sequence'] as number) - 1);
    expect(replay['archived_through'] as number).toBeGreaterThanOrEqual((replay['first_sequence'] as number) - 1);
    await obs.close();
    await waitUntil(
      async () => {
        const m = (await session(s.session_id))['members'] as Record<string, number>;
        return m['observers'] === 0 && m['controllers'] === 1;
      },
      5000,
      'observer gone',
    );
    const listed = (await http(ctx.server, 'GET', '/api/v1/sessions')).body as {
      sessions: Array<Record<string, unknown>>;
    };
    expect(listed.sessions.find((x) => x['session_id'] === s.session_id)?.['members']).toEqual({
      controllers: 1,
      observers: 0,
    });
  });
});

describe('after the session ends', () => {
  it('a closed session is archived whole, then evicted from the replay log', async () => {
    const s = await ctx.createSession({
      argv: ['/bin/sh', '-c', 'i=1; while [ $i -le 50 ]; do echo "end-$i"; i=$((i+1)); sleep 0.005; done'],
      env: ENV,
    });
    await waitUntil(
      async () => {
        const t = await transcriptOk(s.session_id, '?limit=10000');
        return t.frames.at(-1)?.kind === 'Closed' && t.hot_first_seq > 10 ? t : undefined;
      },
      15_000,
      'Closed, and the log trimmed behind the archive',
    );
    const t = await transcriptOk(s.session_id, '?limit=10000');
    expect(t.frames.map((f) => f.sequence)).toEqual(Array.from({ length: t.last_seq }, (_, i) => i + 1));
    expect(outputText(t).match(/end-\d+/g)).toEqual(Array.from({ length: 50 }, (_, i) => `end-${i + 1}`));
    expect(t.frames.at(-1)?.payload).toMatchObject({ kind: 'Closed', reason: 'normal', exit_code: 0 });
  });

  it('is forgotten with its archive after PTYWS_CLOSED_SESSION_TTL_S', async () => {
    const short = await TestContext.start({ replayFrames: 5, replayRetentionS: 0, closedSessionTtlS: 1 });
    try {
      const s = await short.createSession({ argv: ['/bin/sh', '-c', 'echo brief; sleep 0.2'], env: ENV });
      const get = (q = '') => http(short.server, 'GET', `/api/v1/sessions/${s.session_id}/transcript${q}`);
      await waitUntil(
        async () => ((await get()).body as Transcript | undefined)?.frames?.at(-1)?.kind === 'Closed',
        10_000,
        'Closed',
      );
      const archived = () => readdirSync(short.config.transcriptDir!).some((f) => f.startsWith(s.session_id));
      if (short.server.mode === 'embedded') await waitUntil(archived, 5000, 'archive files written');
      await waitUntil(async () => (await get()).status === 404, 15_000, 'the session to be forgotten');
      if (short.server.mode === 'embedded') await waitUntil(() => !archived(), 5000, 'archive files removed');
    } finally {
      await short.dispose();
    }
  });
});
