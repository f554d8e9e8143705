/** `ptyctl tail`: a session's output on stdout without a TTY, until the session closes. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSession, mintToken, startTestServer, waitUntil, type TestServer } from '@pty-ws/testkit';
import { ensureBuilt, ptyctl, startPtyctl, type RunningCli } from './cli';

let server: TestServer;
let env: Record<string, string>;
let dir: string;
const running: RunningCli[] = [];

beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer();
  env = { PTYWS_URL: server.httpUrl, PTYWS_TOKEN: server.adminToken };
  dir = mkdtempSync(join(tmpdir(), 'ptyctl-tail-'));
}, 120_000);

afterAll(async () => {
  for (const r of running) r.kill();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A session that prints `before`, waits until the test creates `gate`, prints `after` and exits. */
async function gatedSession(gate: string, before: string, after: string): Promise<string> {
  const script = `${before ? `echo ${before}; ` : ''}while [ ! -e ${gate} ]; do sleep 0.05; done; echo ${after}`;
  return (await createSession(server, { argv: ['/bin/sh', '-c', script] })).session_id;
}

/** A session running `script`, once it has closed. */
async function closedSession(script: string): Promise<string> {
  const id = (await createSession(server, { argv: ['/bin/sh', '-c', script] })).session_id;
  await waitUntil(
    async () => (await ptyctl(['session', 'show', id], env)).stdout.includes('closed'),
    10_000,
    'the session to close',
    100,
  );
  return id;
}

function tail(args: string[], tailEnv: Record<string, string | undefined>): RunningCli {
  const r = startPtyctl(['tail', ...args], tailEnv);
  running.push(r);
  return r;
}

describe('ptyctl tail', () => {
  it('prints the replayed and then the live output, and exits 0 when the session closes', async () => {
    const gate = join(dir, 'gate-1');
    const id = await gatedSession(gate, 'first', 'second');
    // An observe-only token cannot read the admin API, so the instance comes from PTYWS_INSTANCE.
    const { token } = await mintToken(server, { scopes: ['pty:observe'] });
    const r = tail([id, '--replay-from', '0'], { ...env, PTYWS_TOKEN: token, PTYWS_INSTANCE: server.instanceId });
    await waitUntil(() => r.stdout.includes('first'), 10_000, 'the replayed "first"');
    writeFileSync(gate, '');
    expect(await r.exited).toBe(0);
    expect(r.stdout).toBe('first\r\nsecond\r\n');
    expect(r.stderr).toContain(`[ptyctl] tailing ${id} as observer`);
    expect(r.stderr).toMatch(/\[ptyctl\] session closed \(normal, exit code 0\)\n$/);
  });

  it('prints only live output by default; finds the instance on its own (binary subprotocol)', async () => {
    const gate = join(dir, 'gate-2');
    const id = await gatedSession(gate, '', 'live-output');
    const r = tail([id, '--binary'], env); // no PTYWS_INSTANCE: the session record names it
    await waitUntil(() => r.stderr.includes('tailing'), 10_000, 'tail to join');
    writeFileSync(gate, '');
    expect(await r.exited).toBe(0);
    expect(r.stdout).toBe('live-output\r\n');
  });

  it('exits 3 when its token is revoked while it runs', async () => {
    const id = (await createSession(server, { argv: ['/bin/sh', '-c', 'sleep 30'] })).session_id;
    const minted = await mintToken(server, { scopes: ['pty:observe'] });
    const r = tail([id], { ...env, PTYWS_TOKEN: minted.token, PTYWS_INSTANCE: server.instanceId });
    await waitUntil(() => r.stderr.includes('tailing'), 10_000, 'tail to join');
    expect((await ptyctl(['token', 'revoke', minted.token_id], env)).code).toBe(0);
    expect(await r.exited).toBe(3);
    expect(r.stderr).toMatch(/^ptyctl: the token was revoked; disconnected\n$/m);
    await ptyctl(['session', 'kill', id], env);
  });

  it('exits 4 for an unknown session, 3 for a bad token; a closed session replays and exits 0', async () => {
    const closed = await closedSession('echo gone_$((3*3))');
    const [unknown, badToken, gone] = await Promise.all([
      ptyctl(['tail', 'no-such-session', '--instance', server.instanceId], env),
      ptyctl(['tail', closed, '--instance', server.instanceId], { ...env, PTYWS_TOKEN: 'ptyws_wrong' }),
      ptyctl(['tail', closed, '--replay-from', '0'], env),
    ]);
    // The refused upgrade in words, not the WebSocket library's "Unexpected server response: 404".
    expect(unknown).toEqual({ code: 4, stdout: '', stderr: 'ptyctl: session not found: no-such-session\n' });
    expect(badToken).toEqual({
      code: 3,
      stdout: '',
      stderr: 'ptyctl: the server refused the token (HTTP 401): check --token or PTYWS_TOKEN\n',
    });
    expect(badToken.stderr).not.toContain('ptyws_wrong');
    // Still retained: the attach endpoint replays it (ending in Closed) instead of answering 404.
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain('gone_9');
    expect(gone.stderr).toMatch(/\[ptyctl\] session closed \(normal, exit code 0\)\n$/);
  });

  it("--exit-status exits with the session's exit code, 254 when killed, 255 when it cannot tell", async () => {
    const gate = join(dir, 'gate-status');
    const script = `echo started; while [ ! -e ${gate} ]; do sleep 0.05; done; exit 5`;
    const id = (await createSession(server, { argv: ['/bin/sh', '-c', script] })).session_id;
    const live = tail([id, '--exit-status', '--replay-from', '0'], env);
    await waitUntil(() => live.stdout.includes('started'), 10_000, 'tail to print "started"');
    writeFileSync(gate, '');
    expect(await live.exited).toBe(5);
    expect(live.stderr).toMatch(/\[ptyctl\] session closed \(normal, exit code 5\)\n$/);
    // Already closed (replayed), and without the flag the old contract: 0.
    expect((await ptyctl(['tail', id, '--exit-status'], env)).code).toBe(5);
    expect((await ptyctl(['tail', id], env)).code).toBe(0);

    const sleeper = (await createSession(server, { argv: ['/bin/sh', '-c', 'sleep 30'] })).session_id;
    const killed = tail([sleeper, '--exit-status'], env);
    await waitUntil(() => killed.stderr.includes('tailing'), 10_000, 'tail to join');
    await ptyctl(['session', 'kill', sleeper], env);
    expect(await killed.exited).toBe(254);
    // Ended by a signal: no exit code of its own either (replayed, as it has closed already).
    const signalled = await closedSession('kill -9 $$');
    expect((await ptyctl(['tail', signalled, '--exit-status'], env)).code).toBe(254);

    const unknown = await ptyctl(['tail', 'no-such-session', '--exit-status', '--instance', server.instanceId], env);
    expect(unknown).toEqual({ code: 255, stdout: '', stderr: 'ptyctl: session not found: no-such-session\n' });
  });
});
