/** `ptyctl session|token|transcript` and the exit codes, against a real server. */
import { startTestServer, waitUntil, type TestServer } from '@pty-ws/testkit';
import { ensureBuilt, ptyctl } from './cli';

let server: TestServer;
let env: Record<string, string>;

beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer();
  env = { PTYWS_URL: server.httpUrl, PTYWS_TOKEN: server.adminToken };
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function json<T>(text: string): T {
  return JSON.parse(text) as T;
}

describe('ptyctl session', () => {
  it('creates, lists, shows and kills a session (human output)', async () => {
    const created = await ptyctl(
      ['session', 'create', '--cols', '90', '--rows', '25', '--', '/bin/sh', '-c', 'sleep 60'],
      env,
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const id = created.stdout.trim();
    expect(id).toMatch(UUID);

    const list = await ptyctl(['session', 'list'], env);
    expect(list.code).toBe(0);
    const header = list.stdout.split('\n')[0];
    expect(header).toMatch(/^SESSION\s+STATE\s+EXIT\s+REASON\s+SIZE/);
    const row = list.stdout.split('\n').find((l) => l.startsWith(id));
    expect(row).toMatch(/\brunning\s+-\s+-\s+90x25\s+\d+\s+0\/0\s/);
    expect(row).toContain("/bin/sh -c 'sleep 60'");

    const show = await ptyctl(['session', 'show', id], env);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(new RegExp(`^session:\\s+${id}$`, 'm'));
    expect(show.stdout).toMatch(/^state:\s+running$/m);
    expect(show.stdout).toMatch(/^size:\s+90x25$/m);
    expect(show.stdout).toMatch(/^members:\s+0 controllers, 0 observers$/m);
    expect(show.stdout).toMatch(/^archived:\s+\d+ frames$/m);

    const kill = await ptyctl(['session', 'kill', id], env);
    expect(kill).toMatchObject({ code: 0, stdout: `killed ${id}\n` });
    const after = await ptyctl(['session', 'show', id], env);
    expect(after.stdout).toMatch(/^state:\s+closed$/m);
    expect(after.stdout).toMatch(/^closed reason:\s+killed$/m);
  });

  it('prints JSON with --json on create, list, show and kill', async () => {
    const created = await ptyctl(['session', 'create', '--json', '-e', 'FOO=bar', '--command', 'sleep 60'], env);
    expect(created.code).toBe(0);
    const s = json<{ session_id: string; state: string; instance_id: string }>(created.stdout);
    expect(s).toMatchObject({ state: 'running', instance_id: server.instanceId });

    const list = json<{ session_id: string }[]>((await ptyctl(['session', 'list', '--json'], env)).stdout);
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((x) => x.session_id)).toContain(s.session_id);

    // --json belongs to the listing/show commands, not to ptyctl itself.
    expect((await ptyctl(['--json', 'session', 'show', s.session_id], env)).code).toBe(2);
    const show = json<{ session_id: string }>((await ptyctl(['session', 'show', s.session_id, '--json'], env)).stdout);
    expect(show.session_id).toBe(s.session_id);

    const killed = await ptyctl(['session', 'kill', '--json', s.session_id], env);
    expect(killed.code).toBe(0);
    expect(json<{ state: string; closed_reason: string }>(killed.stdout)).toMatchObject({
      state: 'closed',
      closed_reason: 'killed',
    });
  });

  it('exits 4 for an unknown session, with one line on stderr naming it', async () => {
    for (const args of [
      ['session', 'show', 'no-such-session'],
      ['session', 'kill', 'no-such-session'],
      ['transcript', 'no-such-session'],
    ]) {
      const r = await ptyctl(args, env);
      expect({ args, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
        args,
        code: 4,
        stdout: '',
        stderr: 'ptyctl: session not found: no-such-session\n',
      });
    }
  });

  it('lists the exit code and reason of closed sessions; kill of a closed one exits 5 and says so', async () => {
    const created = await ptyctl(['session', 'create', '--', '/bin/sh', '-c', 'exit 5'], env);
    const id = created.stdout.trim();
    await waitUntil(
      async () => (await ptyctl(['session', 'show', id], env)).stdout.includes('closed'),
      10_000,
      'the session to exit',
      100,
    );
    const list = await ptyctl(['session', 'list'], env);
    expect(list.stdout.split('\n').find((l) => l.startsWith(id))).toMatch(/^\S+\s+closed\s+5\s+normal\s/);

    const kill = await ptyctl(['session', 'kill', id], env);
    expect(kill).toEqual({
      code: 5,
      stdout: '',
      stderr: `ptyctl: session ${id} had already closed (normal, exit code 5); nothing to kill\n`,
    });
    // Killed once: a second kill is refused the same way, and --json still prints the record.
    const live = (await ptyctl(['session', 'create', '--', '/bin/sh', '-c', 'sleep 60'], env)).stdout.trim();
    expect((await ptyctl(['session', 'kill', live], env)).code).toBe(0);
    const again = await ptyctl(['session', 'kill', '--json', live], env);
    expect(again.code).toBe(5);
    expect(json<{ closed_reason: string }>(again.stdout).closed_reason).toBe('killed');
    expect(again.stderr).toBe(`ptyctl: session ${live} had already closed (killed); nothing to kill\n`);
  });

  it("sends --task-executor as the session's task_executor", async () => {
    const live = await ptyctl(['session', 'create', '--task-executor', 'live_shell', '--', '/bin/sh'], env);
    expect(live.code).toBe(0);
    await ptyctl(['session', 'kill', live.stdout.trim()], env);
    // The server checks the value: its refusal shows the field reached it.
    const bad = await ptyctl(['session', 'create', '--task-executor', 'teleport', '--', '/bin/sh'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^ptyctl: task_executor must be 'process' or 'live_shell'/);
  });
});

describe('ptyctl token', () => {
  it('mints (printing the token once), lists without secrets, and revokes', async () => {
    const created = await ptyctl(
      ['token', 'create', '--scope', 'pty:observe', '--label', 'alice', '--ttl', '3600'],
      env,
    );
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token.length).toBeGreaterThan(20);
    expect(created.stdout).toBe(`${token}\n`); // the secret alone on stdout: TOKEN=$(ptyctl token create …)
    const tokenId = /token (\S+) \(pty:observe\) created/.exec(created.stderr)?.[1];
    expect(tokenId).toBeDefined();
    expect(created.stderr).not.toContain(token);

    const list = await ptyctl(['token', 'list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain(token);
    expect(list.stdout).not.toContain(server.adminToken);
    const row = list.stdout.split('\n').find((l) => l.startsWith(tokenId!));
    expect(row).toMatch(/\bactive\s+pty:observe\s+-\s+alice\b/);

    const listJson = await ptyctl(['token', 'list', '--json'], env);
    expect(listJson.stdout).not.toContain(token);
    const views = json<{ token_id: string; label: string | null }[]>(listJson.stdout);
    expect(views.find((t) => t.token_id === tokenId)).toMatchObject({ label: 'alice' });

    // The minted token works (observe-only: the admin REST API answers 403 → exit 3).
    const asAlice = await ptyctl(['session', 'list'], { ...env, PTYWS_TOKEN: token });
    expect(asAlice.code).toBe(3);
    expect(asAlice.stderr).not.toContain(token);

    const revoked = await ptyctl(['token', 'revoke', tokenId!], env);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked ${tokenId}\n` });
    const again = await ptyctl(['token', 'list'], env);
    expect(again.stdout.split('\n').find((l) => l.startsWith(tokenId!))).toMatch(/\brevoked\b/);
    // Revoked: 401 now, still exit 3.
    expect((await ptyctl(['session', 'list'], { ...env, PTYWS_TOKEN: token })).code).toBe(3);
  });

  it('prints the minted token and its record with --json', async () => {
    const r = await ptyctl(['token', 'create', '--json', '--scope', 'pty:observe,pty:control'], env);
    expect(r.code).toBe(0);
    const minted = json<{ token: string; token_id: string; scopes: string[] }>(r.stdout);
    expect(minted.scopes.sort()).toEqual(['pty:control', 'pty:observe']);
    expect(typeof minted.token).toBe('string');
    const revoked = await ptyctl(['token', 'revoke', '--json', minted.token_id], env);
    expect(json<{ revoked_at: string | null }>(revoked.stdout).revoked_at).not.toBeNull();
  });

  it('exits 4 when revoking an unknown token id', async () => {
    const r = await ptyctl(['token', 'revoke', 'no-such-token'], env);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^ptyctl: .*not found.*\n$/);
  });
});

describe('exit codes and configuration', () => {
  it('exits 2 for usage errors, with one ptyctl: line on stderr and nothing on stdout', async () => {
    const cases = [
      ['session', 'list', '--bogus'],
      ['session', 'show'],
      ['session', 'show', 'a', 'b'],
      ['session', 'create', '--cols', 'abc', '--rows', '10'],
      ['session', 'create', '--cols', '80'],
      ['session', 'create', '--command', 'true', '--', '/bin/true'],
      ['session', 'nope'],
      ['session'],
      ['token', 'create'],
      ['token', 'create', '--scope', 'pty:root'],
      ['token', 'create', '--scope', 'pty:observe', '--ttl', '-5'],
      ['attach', 'x', '--replay-from', 'ten'],
      ['attach', 'x'], // stdin is not a terminal here: tail is the command for that
      ['nonsense'],
      [],
      ['--url', 'ftp://example.invalid', 'session', 'list'],
      ['--url', 'http://127.0.0.1:1/?token=x', 'session', 'list'],
      ['transcript', 'abc', '--stream', 'stdin'],
      ['transcript', 'abc', '--format', 'html'],
      ['transcript', 'abc', '--format', 'asciicast', '--grep', 'x'],
      ['transcript', 'abc', '--from-seq', '9', '--to-seq', '3'],
      ['transcript', 'abc', '--limit', '0'],
      ['transcript', 'abc', '-m', '1'], // needs --grep
      ['transcript', 'abc', '--grep', 'x', '--timeout', '5'], // needs --follow
      ['transcript', 'abc', '--grep', 'x', '--color', 'sometimes'],
    ];
    const results = await Promise.all(cases.map((args) => ptyctl(args, env)));
    results.forEach((r, i) => {
      const got = { args: cases[i], code: r.code, stdout: r.stdout, lines: r.stderr.split('\n').length - 1 };
      expect(got).toEqual({ args: cases[i], code: 2, stdout: '', lines: 1 });
      expect(r.stderr).toMatch(/^ptyctl: /);
    });
  });

  it('exits 3 for a bad or missing token, without echoing the token', async () => {
    const bad = await ptyctl(['session', 'list'], { ...env, PTYWS_TOKEN: 'ptyws_not-a-real-token' });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/^ptyctl: .*HTTP 401\)\n$/);
    expect(bad.stderr).not.toContain('ptyws_not-a-real-token');

    const none = await ptyctl(['session', 'list'], { ...env, PTYWS_TOKEN: undefined });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('no token given');

    // --token wins over PTYWS_TOKEN.
    const flag = await ptyctl(['--token', server.adminToken, 'session', 'list'], { ...env, PTYWS_TOKEN: 'wrong' });
    expect(flag.code).toBe(0);
  });

  it('exits 1 when the server cannot be reached', async () => {
    const r = await ptyctl(['session', 'list'], { ...env, PTYWS_URL: 'http://127.0.0.1:1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('ptyctl: cannot reach http://127.0.0.1:1: ECONNREFUSED\n');
  });

  it('prints help for every command with exit 0', async () => {
    const commands = [
      [],
      ['session'],
      ['session', 'create'],
      ['session', 'list'],
      ['token', 'create'],
      ['attach'],
      ['tail'],
    ];
    const results = await Promise.all(commands.map((args) => ptyctl([...args, '--help'], env)));
    results.forEach((r, i) => {
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: ptyctl ${commands[i]!.join(' ')}`.trimEnd());
    });
    expect(results[1]!.stdout).toContain('--url <url>'); // global options are listed per command
  });
});
