/**
 * `npm start` (services/standalone/dist/main.js) on SIGTERM: every connected client gets
 * binding_goodbye `server_shutdown` and close 1000, the sessions end, and the process exits 0
 * promptly; a session that will not die is cut off by PTYWS_GRACE_PERIOD_S (exit 1). The agent's
 * own metrics server runs when PTYWS_AGENT_METRICS_PORT is set.
 */
import { joinSession, startStandaloneProcess, waitUntil, type StandaloneProcess } from '@pty-ws/testkit';
import { attach, buildStandalone, createSession, httpGet, outputText } from './support';

const children = new Set<StandaloneProcess>();

// Incremental: a no-op when dist is current (npm test builds first anyway).
beforeAll(buildStandalone, 130_000);

afterEach(() => {
  for (const c of children) c.kill();
  children.clear();
});

async function startMain(env: Record<string, string> = {}): Promise<StandaloneProcess> {
  const s = await startStandaloneProcess(env);
  children.add(s);
  return s;
}

const env = { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

describe('SIGTERM', () => {
  it('says binding_goodbye server_shutdown, closes 1000 and exits 0 promptly', async () => {
    const s = await startMain({ PTYWS_AGENT_METRICS_PORT: '0' });
    expect(s.agentMetricsPort).toBeGreaterThan(0);
    const agentBase = `http://127.0.0.1:${s.agentMetricsPort}`;
    expect((await httpGet(`${agentBase}/readyz`)).status).toBe(200);
    expect((await httpGet(`${agentBase}/healthz`)).status).toBe(200);
    expect((await httpGet(`${agentBase}/metrics`)).text).toMatch(/^ptyws_sessions\{/m);

    const sessionId = await createSession(s, { argv: ['/bin/sh'], env, cols: 80, rows: 24 });
    const controller = await attach(s, sessionId);
    await joinSession(controller, { role: 'controller' });
    const watcher = await attach(s, sessionId); // connected, never joined
    const from = controller.mark();
    controller.send('pty.session_input', { data: Buffer.from('echo up_$((40+2))\n').toString('base64') });
    await waitUntil(() => /up_42/.test(outputText(controller, from)), 5000, 'the shell to answer');

    const sentAt = Date.now();
    s.child.kill('SIGTERM');
    for (const c of [controller, watcher]) {
      const goodbye = await c.waitFor((r) => r.type === 'json' && r.frame.op === 'binding_goodbye', 5000);
      expect(goodbye.type === 'json' && goodbye.frame.payload).toEqual({ reason: 'server_shutdown' });
      expect(await c.closed).toEqual({ code: 1000, reason: 'server_shutdown' });
    }
    const exit = await s.exited;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - sentAt).toBeLessThan(5000);

    const lines = s
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'shutting down', signal: 'SIGTERM', service: 'pty-ws', grace_period_s: 25 }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'stopped', level: 'info' }));
  }, 30_000);

  it('forces the exit after PTYWS_GRACE_PERIOD_S when a session will not end', async () => {
    const s = await startMain({ PTYWS_GRACE_PERIOD_S: '1' });
    // Ignores the SIGHUP of a kill; the agent's SIGKILL only follows after 3 s.
    const sessionId = await createSession(s, {
      argv: ['/bin/sh', '-c', "trap '' HUP; read go; echo ready_$((40+2)); sleep 30"],
      env,
    });
    const c = await attach(s, sessionId);
    await joinSession(c, { role: 'controller' });
    c.send('pty.session_input', { data: Buffer.from('go\n').toString('base64') });
    await waitUntil(() => /ready_42/.test(outputText(c)), 5000, 'the trap to be set');

    const sentAt = Date.now();
    s.child.kill('SIGTERM');
    const goodbye = await c.waitFor((r) => r.type === 'json' && r.frame.op === 'binding_goodbye', 5000);
    expect(goodbye.type === 'json' && goodbye.frame.payload).toEqual({ reason: 'server_shutdown' });
    const exit = await s.exited;
    expect(exit.code).toBe(1);
    expect(exit.at - sentAt).toBeGreaterThanOrEqual(900);
    expect(exit.at - sentAt).toBeLessThan(2900);
    expect(s.stdout()).toContain('grace period over: forcing exit');
  }, 30_000);
});
