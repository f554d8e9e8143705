/**
 * tmux and screen as `managed` session hosts (binding §5.1, §5.1.1), over REST and WebSocket
 * against the real multiplexers: the program runs in a named multiplexer session on the agent's
 * private socket, the multiplexer's own UI stays invisible, and Closed carries the program's exit.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { http, joinSession, type TestClient } from '@pty-ws/testkit';
import type { ManagedBackend } from '@pty-ws/pty-agent';
import { INSTALLED, closedFrame, multiplexerSessions, privateAgent, processes, shellBody, useServer } from './support';

const agent = privateAgent();
const ctx = useServer({ stateDir: agent.stateDir, agentId: agent.agentId }, agent.cleanup);

async function create(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await http(ctx().server, 'POST', '/api/v1/sessions', { json: body });
  if (res.status !== 201) throw new Error(`POST /api/v1/sessions → ${res.status} ${res.text}`);
  return res.body as Record<string, unknown>;
}

async function controller(sessionId: string): Promise<TestClient> {
  const c = await ctx().attach(sessionId);
  await joinSession(c, { role: 'controller' });
  return c;
}

describe('session host selection', () => {
  it('binding_hello advertises native/direct plus each installed multiplexer as managed', async () => {
    const s = (await create(shellBody())) as { session_id: string };
    const hello = await (await ctx().attach(s.session_id)).hello();
    expect(hello.session_host.supported_backends).toEqual(['native', ...INSTALLED]);
    expect(hello.session_host.supported_classes).toEqual(INSTALLED.length > 0 ? ['direct', 'managed'] : ['direct']);
    expect(hello.session_host.reattach_supported).toBe(true);
    expect(hello.session_host.supported_backends).not.toContain('zellij');
  });

  it('pairs are validated: native is direct only, multiplexers managed only, zellij is not built', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ session_backend: 'native', session_class: 'managed' }, 'session_class.not_implemented'],
      [{ session_backend: 'zellij', session_class: 'managed' }, 'session_backend.not_implemented'],
      [{ session_class: 'managed' }, 'session_class.not_implemented'],
      ...INSTALLED.map((b): [Record<string, unknown>, string] => [
        { session_backend: b, session_class: 'direct' },
        'session_class.not_implemented',
      ]),
    ];
    for (const [sel, reason] of cases) {
      const res = await http(ctx().server, 'POST', '/api/v1/sessions', { json: shellBody(sel) });
      expect([JSON.stringify(sel), res.status]).toEqual([JSON.stringify(sel), 400]);
      expect(res.text).toContain(reason);
    }
  });
});

const managed = INSTALLED.length > 0 ? describe.each(INSTALLED) : describe.skip.each(['tmux' as ManagedBackend]);

managed('%s/managed sessions', (backend) => {
  it('runs the program in a multiplexer session named after the session id, keys and output pass through', async () => {
    const body = shellBody({ session_backend: backend });
    const secret = `s3cr3t_${backend}_${process.pid}`;
    body['env'] = { ...(body['env'] as Record<string, string>), PTYWS_TEST_SECRET: secret };
    const s = await create(body);
    expect(s['session_backend']).toBe(backend);
    expect(s['session_class']).toBe('managed');
    const id = s['session_id'] as string;
    expect(multiplexerSessions(backend, agent.paths)).toContain(id);
    const c = await controller(id);
    const from = c.mark();
    c.input('echo managed_$((40+2))\n');
    await c.collectOutput(/managed_42/, 5000, from);
    // The session's env reaches the program but no process's command line (readable by all users).
    c.input('echo "env:$PTYWS_TEST_SECRET"\n');
    await c.collectOutput(new RegExp(`env:${secret}`), 5000, from);
    expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toContain(secret);
    // The multiplexers' own prefix keys (tmux ^B, screen ^A) reach the program untouched.
    const keys = c.mark();
    c.input('od -c | head -1\n');
    await new Promise((r) => setTimeout(r, 300));
    c.input('\x02\x01z\n\x04');
    await c.collectOutput(/002\s+001\s+z/, 5000, keys);
    await http(ctx().server, 'DELETE', `/api/v1/sessions/${id}`);
  });

  it('the program exiting closes the session with its own exit code and no multiplexer teardown', async () => {
    const s = await create(shellBody({ session_backend: backend }));
    const id = s['session_id'] as string;
    const c = await controller(id);
    const from = c.mark();
    c.input('echo last_$((1+1)); exit 7\n');
    const closed = await closedFrame(c);
    expect(closed.exit_code).toBe(7);
    expect(closed.reason).toBe('normal');
    const text = c.outputSince(from).toString('utf8');
    expect(text).toMatch(/last_2/);
    expect(text).not.toMatch(/\[exited\]|screen is terminating|Pane is dead/);
    const rec = (await http(ctx().server, 'GET', `/api/v1/sessions/${id}`)).body as Record<string, unknown>;
    expect(rec['exit_code']).toBe(7);
    expect(rec['state']).toBe('closed');
    await waitGone(backend, id);
  });

  it('a program killed by a signal: Closed reports it as a shell does (128+signal)', async () => {
    const argv = ['/bin/sh', '-c', 'sleep 1; kill -TERM $$'];
    const s = await create(shellBody({ session_backend: backend, argv }));
    const c = await controller(s['session_id'] as string);
    const closed = await closedFrame(c);
    expect(closed.reason).toBe('normal');
    // Both backends' wrappers see the program's status as the shell's $? (143).
    expect(closed.exit_code).toBe(143);
  });

  it('DELETE kills the multiplexer session: Closed reason killed', async () => {
    const s = await create(shellBody({ session_backend: backend }));
    const id = s['session_id'] as string;
    const c = await controller(id);
    const res = await http(ctx().server, 'DELETE', `/api/v1/sessions/${id}`);
    expect(res.status).toBeLessThan(300);
    const closed = await closedFrame(c);
    expect(closed.reason).toBe('killed');
    await waitGone(backend, id);
  });

  // Neither sleep ever reads the terminal, so only a signal ends them; SIGKILL after the grace if
  // they ignore the hangup.
  it.each([
    ['never reads its terminal', 'sleep 3600 & sleep 3600'],
    ['ignores hangups', 'trap "" HUP; sleep 3600 & sleep 3600'],
  ])('DELETE leaves nothing of the session running (a program that %s, its child, its wrapper)', async (_, script) => {
    const argv = ['/bin/sh', '-c', script];
    const s = await create(shellBody({ session_backend: backend, argv }));
    const id = s['session_id'] as string;
    const c = await controller(id);
    const run = backend === 'screen' ? agent.paths.screenRun : agent.paths.tmuxRun;
    const pid = Number(readFileSync(path.join(run, `${id}.pid`), 'utf8'));
    // The pane's or window's session: its wrapper leads it, the program and the sleeps are in it.
    const sid = processes().find((p) => p.pid === pid)?.sid ?? -1;
    expect(sid).toBeGreaterThan(1);
    expect(sid).not.toBe(processes().find((p) => p.pid === process.pid)?.sid);
    const members = await until(
      () => processes().filter((p) => p.sid === sid),
      (m) => m.length >= 4,
    );
    expect(members.map((p) => p.pid)).toContain(pid);
    expect(members.filter((p) => p.cmdline.startsWith('sleep\0'))).toHaveLength(2);
    await http(ctx().server, 'DELETE', `/api/v1/sessions/${id}`);
    expect((await closedFrame(c)).reason).toBe('killed');
    const left = await until(
      () => processes().filter((p) => p.sid === sid),
      (m) => m.length === 0,
    );
    expect(left.map((p) => p.cmdline.replace(/\0/g, ' '))).toEqual([]);
    await waitGone(backend, id);
  });

  it('a bad program fails the creation or closes the session, never leaves a multiplexer session', async () => {
    const res = await http(ctx().server, 'POST', '/api/v1/sessions', {
      json: shellBody({ session_backend: backend, argv: ['/nonexistent/program'] }),
    });
    if (res.status === 201) {
      const id = (res.body as { session_id: string }).session_id;
      await waitGone(backend, id);
    } else expect(res.status).toBe(400);
  });
});

async function waitGone(backend: (typeof INSTALLED)[number], id: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (multiplexerSessions(backend, agent.paths).includes(id)) {
    if (Date.now() > deadline) throw new Error(`${backend} session ${id} still exists`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls `probe` until `done` holds or 10 s have passed; returns its last answer either way. */
async function until<T>(probe: () => T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  let value = probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = probe();
  }
  return value;
}
