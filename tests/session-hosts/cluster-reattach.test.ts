/**
 * Managed sessions in cluster mode (agent and edges as processes, NATS + Postgres): a tmux or
 * screen session survives `kill -9` of its agent; the agent restarted with the same id and state
 * directory re-attaches it, and a client reconnecting with replay_from on the other edge sees one
 * gapless, duplicate-free log, the same shell (same pid, its variables intact) and, after the
 * keyframe, exactly the screen the multiplexer itself shows; what the program printed while the
 * agent was down is in the log too (from the multiplexer's history). Edges advertise in binding_hello
 * what the live agent hosts (agents announce their capabilities over NATS).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BindingHelloPayload } from '@pty-ws/protocol';
import { agentPaths, sessionHostCapabilities, type AgentPaths, type ManagedBackend } from '@pty-ws/pty-agent';
import { visibleText } from '@pty-ws/pty-agent/internal';
import {
  TestClient,
  captureScreen,
  gaps,
  joinSession,
  logSequences,
  newTerminal,
  sequenceViolations,
  startCluster,
  testDefaults,
  writeAll,
  type ClusterHandle,
  type EdgeHandle,
} from '@pty-ws/testkit';
import { multiplexerScreen, snapshotLines, trimLines, until } from './multiplexer-view';
import { INSTALLED, killLeftovers, multiplexerSessions, screenSockets, tryRun } from './support';

jest.setTimeout(90_000);

const PATH_ENV = process.env['PATH'] ?? '/usr/bin:/bin';
// Short: screen's socket path must fit in 107 bytes.
const stateDir = mkdtempSync('/tmp/pwcl-');
let cluster: ClusterHandle;
let paths: AgentPaths;
const clients = new Set<TestClient>();

beforeAll(async () => {
  cluster = await startCluster({ ...testDefaults(), logLevel: 'info', stateDir });
  paths = agentPaths(stateDir, cluster.agents[0]!.agentId);
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.terminate();
  await cluster?.stop();
  // The agent detaches its managed sessions on SIGTERM: end them and their servers here.
  if (paths) {
    tryRun('tmux', ['-S', paths.tmuxSocket, 'kill-server']);
    for (const s of screenSockets(paths)) tryRun('screen', ['-S', s, '-X', 'quit'], { SCREENDIR: paths.screenDir });
  }
  // What outlived its multiplexer session (support.ts): the programs this file started.
  killLeftovers(stateDir);
  rmSync(stateDir, { recursive: true, force: true });
}, 30_000);

function logs(): string {
  return [...cluster.agents, ...cluster.edges].map((s) => `--- ${s.label}\n${s.output().slice(-3000)}`).join('\n');
}

async function api(edge: EdgeHandle, method: string, path: string, json?: unknown) {
  const res = await fetch(edge.httpUrl + path, {
    method,
    headers: {
      Authorization: `Bearer ${cluster.adminToken}`,
      ...(json !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function createSession(edge: EdgeHandle, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api(edge, 'POST', '/api/v1/sessions', {
    argv: ['/bin/sh'],
    env: { PS1: '$ ', PATH: PATH_ENV },
    cols: 80,
    rows: 24,
    ...extra,
  });
  if (res.status !== 201) throw new Error(`POST /api/v1/sessions → ${res.status} ${res.text}\n${logs()}`);
  return res.body['session_id'] as string;
}

async function attach(edge: EdgeHandle, id: string): Promise<{ c: TestClient; hello: BindingHelloPayload }> {
  const url = `${edge.wsUrl}/agents/${encodeURIComponent(cluster.instanceId)}/sessions/${id}/attach`;
  const c = await TestClient.connect(url, { token: cluster.adminToken });
  clients.add(c);
  return { c, hello: await c.hello() };
}

describe('cluster binding_hello.session_host', () => {
  it('every edge advertises what the live agent hosts, and still does after the agent restarts', async () => {
    const expected = sessionHostCapabilities(INSTALLED);
    const id = await createSession(cluster.edges[0]!);
    for (const edge of cluster.edges) {
      const { c, hello } = await attach(edge, id);
      expect(hello.session_host).toEqual(expected);
      c.terminate();
    }
    // zellij is not built here: not advertised, and asking for it fails closed.
    expect(expected.supported_backends).not.toContain('zellij');
    const refused = await api(cluster.edges[1]!, 'POST', '/api/v1/sessions', {
      argv: ['/bin/sh'],
      session_backend: 'zellij',
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/session_backend\.not_implemented/);
    const { c: joiner } = await attach(cluster.edges[1]!, id);
    await expect(joinSession(joiner, { session_backend: 'zellij' })).rejects.toThrow(
      /session_backend\.not_implemented/,
    );
    joiner.terminate();

    await cluster.agents[0]!.kill('SIGKILL');
    await cluster.agents[0]!.restart();
    const fresh = await createSession(cluster.edges[1]!);
    const { hello } = await attach(cluster.edges[1]!, fresh);
    expect(hello.session_host).toEqual(expected);
    await api(cluster.edges[0]!, 'DELETE', `/api/v1/sessions/${fresh}`);
  });
});

const managed = INSTALLED.length > 0 ? describe.each(INSTALLED) : describe.skip.each(['tmux' as ManagedBackend]);

managed('%s session across kill -9 of the agent (cluster)', (backend) => {
  it('re-attached: same shell, next sequence, no gaps or repeats, screen equal to the multiplexer', async () => {
    const [edgeA, edgeB] = cluster.edges as [EdgeHandle, EdgeHandle];
    const agent = cluster.agents[0]!;
    const id = await createSession(edgeA, { session_backend: backend });

    // Joining with the backend named is validated against what hello advertised.
    const { c: before, hello } = await attach(edgeA, id);
    expect(hello.session_host.supported_backends).toContain(backend);
    await joinSession(before, { role: 'controller', session_backend: backend }, { timeoutMs: 10_000 });
    before.input('KEPT=kept_$((40+2)); echo pid_$$\n');
    const pidBefore = /pid_(\d+)/.exec(await before.collectOutput(/pid_\d+/, 10_000))![1];
    before.input('echo before_$((1+1))\n');
    await before.collectOutput(/before_2/, 10_000);
    await before.settle(200);
    expect(sequenceViolations(before.frames)).toEqual([]);
    const lastSeen = Math.max(...logSequences(before.frames));
    before.terminate();

    await agent.kill('SIGKILL');
    // The multiplexer session outlives its agent.
    expect(multiplexerSessions(backend, paths)).toContain(id);
    await agent.restart(); // ready once its managed sessions are re-attached

    // Reconnect on the other edge with replay_from.
    const { c: after, hello: again } = await attach(edgeB, id);
    expect(again.session_host).toMatchObject({ reattach_supported: true });
    expect(again.session_host.supported_backends).toContain(backend);
    const flush = await joinSession(
      after,
      { role: 'controller', session_backend: backend },
      { replayFrom: lastSeen, timeoutMs: 10_000 },
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${logs()}`);
    });
    const replayed = logSequences(flush.frames);
    expect(replayed[0]).toBe(lastSeen + 1);
    expect(gaps(replayed)).toEqual([]);

    // The keyframe shows what the multiplexer shows.
    const kf = flush.keyframe;
    expect(await snapshotLines(kf.snapshot, kf.snapshot_cols, kf.snapshot_rows)).toEqual(
      await multiplexerScreen(backend, paths, id, stateDir),
    );

    // The same shell kept running: same pid, the variable set before the kill still set.
    const from = after.mark();
    after.input('echo "$KEPT" pid_$$\n');
    const out = await after.collectOutput(/kept_42 pid_\d+/, 10_000, from);
    expect(/kept_42 pid_(\d+)/.exec(out)![1]).toBe(pidBefore);
    await after.settle(300);
    const all = logSequences(after.frames);
    expect(gaps(all)).toEqual([]);
    expect(sequenceViolations(after.frames)).toEqual([]);

    // Keyframe + every Output after it draws exactly the multiplexer's screen.
    const kfIndex = after.frames.indexOf(flush.keyframeFrame);
    const term = newTerminal(kf.snapshot_cols, kf.snapshot_rows);
    await writeAll(term, Buffer.from(kf.snapshot, 'base64'));
    await writeAll(term, after.outputSince(kfIndex + 1));
    const drawn = trimLines(captureScreen(term).lines);
    term.dispose();
    expect(drawn.some((l) => l.includes('kept_42'))).toBe(true);
    expect(drawn).toEqual(await until('a quiet screen', () => multiplexerScreen(backend, paths, id, stateDir)));

    // The whole log, replayed from the start: 1..N, the restart left no hole.
    const { c: full } = await attach(edgeA, id);
    const whole = await joinSession(full, { role: 'observer' }, { replayFrom: 0, timeoutMs: 10_000 });
    const seqs = logSequences(whole.frames);
    expect(seqs[0]).toBe(1);
    expect(gaps(seqs)).toEqual([]);

    const info = await api(edgeA, 'GET', `/api/v1/sessions/${id}`);
    expect(info.body).toMatchObject({ state: 'running', session_backend: backend });
    after.terminate();
    full.terminate();
    expect((await api(edgeA, 'DELETE', `/api/v1/sessions/${id}`)).status).toBeLessThan(300);
    await until('the multiplexer session to end', () =>
      multiplexerSessions(backend, paths).includes(id) ? undefined : true,
    );
  });
});

managed('%s session across a graceful agent stop (SIGTERM) and start (cluster)', (backend) => {
  it('the stopping agent detaches instead of ending the session; the next one re-attaches it', async () => {
    const [edgeA, edgeB] = cluster.edges as [EdgeHandle, EdgeHandle];
    const agent = cluster.agents[0]!;
    const id = await createSession(edgeA, { session_backend: backend });
    const { c: before } = await attach(edgeA, id);
    await joinSession(before, { role: 'controller' }, { timeoutMs: 10_000 });
    before.input('KEPT=term_$((50+5))\n');
    await before.settle(200);
    const lastSeen = Math.max(...logSequences(before.frames));
    before.terminate();

    await agent.stop(); // SIGTERM: drain, detach managed sessions
    expect(multiplexerSessions(backend, paths)).toContain(id);
    await agent.restart();

    const { c: after } = await attach(edgeB, id);
    const flush = await joinSession(after, { role: 'controller' }, { replayFrom: lastSeen, timeoutMs: 10_000 });
    expect(logSequences(flush.frames)[0]).toBe(lastSeen + 1);
    const from = after.mark();
    after.input('echo "$KEPT"\n');
    await after.collectOutput(/term_55/, 10_000, from);
    await after.settle(200);
    expect(gaps(logSequences(after.frames))).toEqual([]);
    after.terminate();
    await api(edgeA, 'DELETE', `/api/v1/sessions/${id}`);
  });
});

/** Numbered lines a session prints across an agent's kill -9, and how many while it is down. */
const LINES = 6000;
const OUTAGE_LINES = 2000;

/** Prints L1E..L<n>E, ten lines every 10 ms once `go` exists, then ALLDONE, then waits. */
function printer(go: string, n: number): string {
  const js =
    `let i=0;const t=setInterval(()=>{for(let k=0;k<10&&i<${n};k++){i++;process.stdout.write('L'+i+'E\\n')}` +
    `if(i>=${n}){clearInterval(t);process.stdout.write('ALLDONE\\n')}},10)`;
  return `while [ ! -e ${go} ]; do sleep 0.02; done; ${process.execPath} -e "${js}"; exec sleep 3600`;
}

/** The highest line number on the multiplexer's screen. */
async function lastOnScreen(backend: ManagedBackend, id: string): Promise<number> {
  const lines = await multiplexerScreen(backend, paths, id, stateDir);
  return Math.max(0, ...lines.map((l) => Number(/^L(\d+)E$/.exec(l)?.[1] ?? 0)));
}

/** The line numbers in the text of Output bytes (escape sequences removed), in order. */
function numbersIn(bytes: Buffer): number[] {
  return [...visibleText(bytes.toString('utf8')).matchAll(/L(\d+)E/g)].map((m) => Number(m[1]));
}

/** Numbers missing from 1..n, and the ones seen more than once. */
function lostAndRepeated(seen: number[], n: number): { lost: number[]; repeated: number[] } {
  const counts = new Map<number, number>();
  for (const v of seen) counts.set(v, (counts.get(v) ?? 0) + 1);
  const lost: number[] = [];
  for (let i = 1; i <= n; i++) if (!counts.has(i)) lost.push(i);
  return { lost, repeated: [...counts].filter(([, c]) => c > 1).map(([v]) => v) };
}

/**
 * What a managed session prints while its agent is down is not lost: the agent is killed (-9) in
 * the middle of a stream of numbered lines, the multiplexer keeps them in its history, and the
 * restarted agent appends the ones its log missed before live output resumes. The text of the
 * log's Output holds every line, in order, and nothing the log already had comes again.
 */
managed('%s: lines printed while the agent was down (kill -9)', (backend) => {
  it('are in the log after the restart, once each and in order', async () => {
    const [edgeA, edgeB] = cluster.edges as [EdgeHandle, EdgeHandle];
    const agent = cluster.agents[0]!;
    const go = path.join(stateDir, `go-${backend}`);
    const id = await createSession(edgeA, { argv: ['/bin/sh', '-c', printer(go, LINES)], session_backend: backend });

    const { c: before } = await attach(edgeA, id);
    await joinSession(before, { role: 'observer' }, { timeoutMs: 10_000 });
    writeFileSync(go, '');
    await before.collectOutput(/L1000E/, 20_000);
    await agent.kill('SIGKILL');
    // What the log holds from the agent that died: the observer gets it all, then nothing more.
    await before.settle(300);
    const seenBefore = Math.max(...numbersIn(before.outputSince(0)));
    const killedAt = await lastOnScreen(backend, id);
    await until(
      'the outage lines',
      async () => ((await lastOnScreen(backend, id)) > killedAt + OUTAGE_LINES ? true : undefined),
      30_000,
    );
    const restarting = Date.now();
    await agent.restart(); // ready once its managed sessions are re-attached, missed output appended
    const restartMs = Date.now() - restarting;

    const { c: after } = await attach(edgeB, id);
    await joinSession(after, { role: 'observer' }, { replayFrom: 0, timeoutMs: 10_000 });
    await after.collectOutput(/ALLDONE/, 30_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${logs()}`);
    });
    await after.settle(300);
    const seqs = logSequences(after.frames);
    expect(seqs[0]).toBe(1);
    expect(gaps(seqs)).toEqual([]);

    // The text of every Output frame of the log: no keyframe stands in for lines. (The agent's
    // client draws on the alternate screen, so a terminal keeps no scrollback of it.)
    const drawn = numbersIn(after.outputSince(0));
    const { lost, repeated } = lostAndRepeated(drawn, LINES);
    process.stdout.write(
      `${backend} reattach history: killed near line ${killedAt}, ${LINES} lines: lost ${lost.length}` +
        ` (${lost[0] ?? '-'}..${lost[lost.length - 1] ?? '-'}), repeated ${repeated.length};` +
        ` agent ready ${restartMs} ms after its restart\n`,
    );
    // Every line is there: the ones printed while the agent was down, and the ones tmux scrolled
    // past a client that fell behind a flood (it then sends the final screen instead of each line;
    // the agent puts them back from tmux's history, screenful-recovery.ts).
    expect(lost).toEqual([]);
    // In order: each line's first occurrence comes after the one before it.
    const firsts = [...new Set(drawn)];
    expect(firsts.filter((n, i) => i > 0 && n <= firsts[i - 1]!)).toEqual([]);
    // Nothing already logged comes again; the only repeats are tmux repainting the re-attached
    // client's first screen (it draws it twice), which the log had not shown yet.
    expect(repeated.filter((n) => n <= seenBefore)).toEqual([]);
    expect(repeated.length).toBeLessThan(24);

    before.terminate();
    after.terminate();
    expect((await api(edgeA, 'DELETE', `/api/v1/sessions/${id}`)).status).toBeLessThan(300);
  });
});
