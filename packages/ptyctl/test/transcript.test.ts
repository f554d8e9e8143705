/** `ptyctl transcript` against a real server whose replay log keeps only a few frames. */
import { http, startTestServer, waitUntil, type TestServer } from '@pty-ws/testkit';
import { CLI, ensureBuilt, ptyctl } from './cli';
import { sh, Tmux } from './tmux';

let server: TestServer;
let env: Record<string, string>;
let id: string;

const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

beforeAll(async () => {
  ensureBuilt();
  // Five frames of replay: almost everything below is read back from the transcript archive.
  server = await startTestServer({ replayFrames: 5, replayRetentionS: 0 });
  env = { PTYWS_URL: server.httpUrl, PTYWS_TOKEN: server.adminToken };
  const created = await http(server, 'POST', '/api/v1/sessions', {
    json: {
      argv: [
        '/bin/sh',
        '-c',
        'i=1; while [ $i -le 60 ]; do echo "row-$i"; i=$((i+1)); sleep 0.005; done; exec sleep 60',
      ],
      env: ENV,
      cols: 80,
      rows: 24,
    },
  });
  id = (created.body as { session_id: string }).session_id;
  await waitUntil(
    async () => (await ptyctl(['transcript', id], env)).stdout.includes('row-60'),
    15_000,
    'row-60 in the transcript',
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('ptyctl transcript', () => {
  it('prints the whole output, older frames from the archive included', async () => {
    const r = await ptyctl(['transcript', id], env);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout.match(/row-\d+/g)).toEqual(Array.from({ length: 60 }, (_, i) => `row-${i + 1}`));
  });

  it('--grep prints one line per match with the sequences it spans', async () => {
    const r = await ptyctl(['transcript', id, '--grep', 'row-5'], env);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(11); // row-5, row-50 … row-59
    // The line of each match, as grep shows it: no neighbouring lines, no ⏎ marks, no colour in a pipe.
    for (const line of lines) expect(line).toMatch(/^\d+(-\d+)?: row-5\d?$/);
  });

  it('--grep highlights the match with --color always (auto: only on a terminal)', async () => {
    const r = await ptyctl(['transcript', id, '--grep', 'w-60', '--color', 'always'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+(-\d+)?: ro\x1b\[1;31mw-60\x1b\[m\n$/);
  });

  it('--grep highlights the match by itself when stdout is a terminal', async () => {
    const tmux = new Tmux();
    try {
      const command = [process.execPath, CLI, 'transcript', id, '--grep', 'w-60'].map(sh).join(' ');
      // The pane stays alive afterwards: tmux draws over a dead pane's last line.
      tmux.start('g', 80, 24, env, `${tmux.logged('g', command)}; sleep 30`);
      expect(await tmux.waitForExit('g')).toBe(0);
      // -e keeps the attributes: the match starts in colour (tmux leaves out the reset at a line's end).
      const screen = tmux.run('capture-pane', '-p', '-e', '-t', 'g');
      expect(screen).toMatch(/^\d+: ro(\x1b\[[\d;]+m)+w-60\s*$/m);
    } finally {
      tmux.destroy();
    }
  });

  it('--grep -m N stops after N matches; no match exits 1 like grep', async () => {
    const two = await ptyctl(['transcript', id, '--grep', 'row-5', '-m', '2'], env);
    expect(two.code).toBe(0);
    expect(two.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(await ptyctl(['transcript', id, '--grep', 'no-such-text'], env)).toEqual({
      code: 1,
      stdout: '',
      stderr: '',
    });
  });

  it('--follow --grep -m 1 stops at the first match; --timeout gives up with 1 when nothing matched', async () => {
    const created = await http(server, 'POST', '/api/v1/sessions', {
      json: { argv: ['/bin/sh', '-c', 'echo not-yet; sleep 0.5; echo READY now; exec sleep 60'], env: ENV },
    });
    const sid = (created.body as { session_id: string }).session_id;
    const first = await ptyctl(['transcript', sid, '--follow', '--grep', 'READY', '-m', '1'], env, 20_000);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/^\d+(-\d+)?: READY now\n$/);
    const none = await ptyctl(['transcript', sid, '--follow', '--grep', 'NEVER', '--timeout', '1'], env, 20_000);
    expect(none).toEqual({ code: 1, stdout: '', stderr: '' });
    await http(server, 'DELETE', `/api/v1/sessions/${sid}`);
  });

  it('--limit, --from-seq and --to-seq bound what is printed; --json gives one document', async () => {
    const r = await ptyctl(['transcript', id, '--json', '--from-seq', '2', '--limit', '3'], env);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { frames: Array<{ sequence: number }>; truncated: boolean };
    expect(doc.frames.map((f) => f.sequence)).toEqual([2, 3, 4]);
    const ranged = JSON.parse(
      (await ptyctl(['transcript', id, '--json', '--from-seq', '3', '--to-seq', '5'], env)).stdout,
    ) as {
      frames: Array<{ sequence: number }>;
    };
    expect(ranged.frames.map((f) => f.sequence)).toEqual([3, 4, 5]);
    const grep = JSON.parse((await ptyctl(['transcript', id, '--json', '--grep', 'row-60'], env)).stdout) as {
      matches: Array<{ text: string }>;
    };
    expect(grep.matches.map((m) => m.text)).toEqual(['row-60']);
  });

  it('--stream stdout keeps the output; --stream stderr has none', async () => {
    expect((await ptyctl(['transcript', id, '--stream', 'stdout'], env)).stdout).toContain('row-60');
    expect(await ptyctl(['transcript', id, '--stream', 'stderr'], env)).toMatchObject({ code: 0, stdout: '' });
  });

  it('--format asciicast prints a recording: header line, then [time, code, data] events', async () => {
    const r = await ptyctl(['transcript', id, '--format', 'asciicast'], env);
    expect(r.code).toBe(0);
    const [header, ...events] = r.stdout.trimEnd().split('\n');
    expect(JSON.parse(header!)).toMatchObject({ version: 2, width: 80, height: 24 });
    const parsed = events.map((l) => JSON.parse(l) as [number, string, string]);
    expect(parsed.every(([t, code, data]) => typeof t === 'number' && code === 'o' && typeof data === 'string')).toBe(
      true,
    );
    expect(parsed.map((e) => e[2]).join('')).toContain('row-60');
  });

  it('--follow prints new output as it comes and exits 0 when the session closes', async () => {
    const created = await http(server, 'POST', '/api/v1/sessions', {
      json: { argv: ['/bin/sh', '-c', 'echo first-part; sleep 1.5; echo second-part; sleep 0.5'], env: ENV },
    });
    const sid = (created.body as { session_id: string }).session_id;
    const r = await ptyctl(['transcript', sid, '--follow'], env, 20_000);
    expect(r.code).toBe(0);
    expect(r.stdout.indexOf('first-part')).toBeGreaterThanOrEqual(0);
    expect(r.stdout.indexOf('second-part')).toBeGreaterThan(r.stdout.indexOf('first-part'));
    expect(r.stdout.match(/first-part/g)).toHaveLength(1);
  });

  it('--follow --grep finds a match split across two polls, once, and the ones after it', async () => {
    // "SPL" is printed, then, well after ptyctl's first read, "IT-ME": the match spans two polls.
    const created = await http(server, 'POST', '/api/v1/sessions', {
      json: {
        argv: [
          '/bin/sh',
          '-c',
          'printf "x SPL"; sleep 3; printf "IT-ME y\\n"; sleep 0.7; echo "and SPLIT-ME again"; sleep 0.7',
        ],
        env: ENV,
      },
    });
    const sid = (created.body as { session_id: string }).session_id;
    await waitUntil(
      async () => (await ptyctl(['transcript', sid], env)).stdout.includes('SPL'),
      5000,
      'the first half in the transcript',
    );
    const r = await ptyctl(['transcript', sid, '--follow', '--grep', 'SPLIT-ME'], env, 20_000);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d+-\d+: x SPLIT-ME/); // spans the frames of both halves
    expect(lines[1]).toMatch(/^\d+(-\d+)?: .*and SPLIT-ME again/);
  });

  it("exits 4 for an unknown session and for one outside the token's binding", async () => {
    const missing = await ptyctl(['transcript', 'no-such-session'], env);
    expect(missing).toMatchObject({ code: 4, stderr: 'ptyctl: session not found: no-such-session\n' });
    const minted = await http(server, 'POST', '/api/v1/tokens', {
      json: { scopes: ['pty:observe'], session_id: id },
    });
    const token = (minted.body as { token: string }).token;
    expect((await ptyctl(['transcript', id, '--limit', '1'], { ...env, PTYWS_TOKEN: token })).code).toBe(0);
    const other = await http(server, 'POST', '/api/v1/sessions', {
      json: { argv: ['/bin/sh', '-c', 'sleep 30'], env: ENV },
    });
    const otherId = (other.body as { session_id: string }).session_id;
    // A session-bound token sees no other session: 404, as for a missing one (SECURITY.md).
    expect((await ptyctl(['transcript', otherId], { ...env, PTYWS_TOKEN: token })).code).toBe(4);
  });
});
