/**
 * Every alternative path of the agent says when it is live: the node-pty fallback (the pty spawner
 * cannot run), the stream relay turned off, the mirror's worker thread. `npm start` runs as its own
 * process; what it says is read from its log and its /metrics.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { joinSession, startStandaloneProcess, waitUntil, type StandaloneProcess } from '@pty-ws/testkit';
import { attach, buildStandalone, createSession, httpGet, parseExposition } from './support';

// Incremental: a no-op when dist is current (npm test builds first anyway).
beforeAll(buildStandalone, 130_000);

async function samples(s: StandaloneProcess): Promise<Map<string, number>> {
  return parseExposition((await httpGet(`${s.httpUrl}/metrics`)).text).samples;
}

/** The JSON log lines of `s` that name `helper` or carry `message`. */
function logLines(s: StandaloneProcess): Record<string, unknown>[] {
  return `${s.stdout()}\n${s.stderr()}`
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A session that prints READY and waits for a line (shell builtins only: PATH may be empty). */
async function waitingSession(s: StandaloneProcess): Promise<void> {
  const sessionId = await createSession(s, { argv: ['/bin/sh', '-c', 'echo READY; read _'], cols: 80, rows: 24 });
  const c = await attach(s, sessionId);
  await joinSession(c, { role: 'observer' }, { replayFrom: 0 });
  await c.collectOutput(/READY/, 10_000);
  await c.close();
}

describe('alternative paths of the agent', () => {
  let s: StandaloneProcess | undefined;
  let emptyDir: string | undefined;
  afterEach(() => {
    s?.kill();
    s = undefined;
    if (emptyDir) rmSync(emptyDir, { recursive: true, force: true });
  });

  it('the node-pty fallback: a warning at start that says why, the failure counted, sessions counted on node_pty', async () => {
    // No setsid on PATH: the pty spawner cannot run, as on a host without util-linux.
    emptyDir = mkdtempSync(path.join(tmpdir(), 'ptyws-no-setsid-'));
    s = await startStandaloneProcess({ PATH: emptyDir });
    const warning = logLines(s).find((l) => l['helper'] === 'pty_spawner');
    expect(warning).toMatchObject({ level: 'warn' });
    expect(String(warning?.['msg'])).toMatch(/`setsid` is not on PATH.*node-pty forks the agent for every session/);
    let m = await samples(s);
    expect(m.get('ptyws_helper_failures_total{where="pty_spawner"}')).toBe(1);
    expect(m.get('ptyws_pty_read_path{path="node_pty"}')).toBe(0);
    await waitingSession(s);
    m = await samples(s);
    expect(m.get('ptyws_pty_read_path{path="node_pty"}')).toBe(1);
    expect(m.get('ptyws_pty_read_path{path="event_loop"}')).toBe(0);
  });

  it('the usual paths: sessions counted on event_loop, no failure; the relay turned off and the mirror worker said at start', async () => {
    s = await startStandaloneProcess({ PTYWS_STREAM_RELAY: 'off', PTYWS_MIRROR_THREAD: 'worker' });
    const messages = logLines(s).map((l) => String(l['msg']));
    expect(messages).toContain(
      'stream relay off (PTYWS_STREAM_RELAY=off): streaming sessions are read on the event loop',
    );
    expect(messages).toContain('keyframes are parsed in a worker thread (PTYWS_MIRROR_THREAD=worker)');
    expect(logLines(s).filter((l) => l['helper'] !== undefined)).toEqual([]);
    await waitingSession(s);
    await waitUntil(
      async () => (await samples(s!)).get('ptyws_pty_read_path{path="event_loop"}') === 1,
      5_000,
      'the session to be counted on the event loop',
    );
    const m = await samples(s);
    for (const where of ['stream_relay', 'pty_spawner', 'mirror_worker'])
      expect(m.get(`ptyws_helper_failures_total{where="${where}"}`)).toBe(0);
  });
});
