/**
 * Agent restart with managed sessions: the first agent lets go of its multiplexer sessions
 * (detachAll), a fresh SessionManager over the same registry and frame log re-attaches them
 * (recoverManagedSessions), and a client reconnecting with replay_from sees one gapless,
 * duplicate-free log whose resync Keyframe shows exactly what the multiplexer shows.
 */
import { execFileSync } from 'node:child_process';
import { loadConfig } from '@pty-ws/config';
import {
  MemoryFrameLog,
  MemoryMembershipStore,
  MemorySessionRegistry,
  MemoryTaskStore,
  MemoryTokenStore,
} from '@pty-ws/adapters-memory';
import { silentLogger, startEdge, type RunningEdge } from '@pty-ws/edge';
import type { EventEntry, SessionControl } from '@pty-ws/ports';
import { SessionHosts, SessionManager, ShellTaskExecutor, TaskService, type ManagedBackend } from '@pty-ws/pty-agent';
import { SCREEN_HISTORY_LINES, TMUX_HISTORY_LINES, visibleText } from '@pty-ws/pty-agent/internal';
import { TestClient, isLogFrame, joinSession, seqOf, type Received } from '@pty-ws/testkit';
import { multiplexerScreen as viewScreen, snapshotLines, until } from './multiplexer-view';
import { INSTALLED, multiplexerSessions, privateAgent, screenSockets } from './support';

const INSTANCE = 'recovery';
const PATH_ENV = process.env['PATH'] ?? '/usr/bin:/bin';
const agent = privateAgent();
const registry = new MemorySessionRegistry();
const log = new MemoryFrameLog();
const hosts = new SessionHosts({ stateDir: agent.stateDir, agentId: agent.agentId });
const managers: SessionManager[] = [];
let current: SessionManager;
let edge: RunningEdge;

/** One agent incarnation: everything but the registry, log and multiplexers is new. */
function startAgent(): SessionManager {
  const m = new SessionManager({
    agentId: agent.agentId,
    instanceId: INSTANCE,
    registry,
    log,
    membershipStore: new MemoryMembershipStore(),
    ptyHost: hosts,
    sessionHost: hosts.capabilities,
    managedHosts: hosts.managed,
    tasks: new TaskService({ store: new MemoryTaskStore(), executor: new ShellTaskExecutor(10_000, 65536) }),
    retention: { minFrames: 100_000, minAgeMs: 3_600_000 },
    closedSessionTtlMs: 3_600_000,
    defaults: { shell: '/bin/sh', defaultCols: 80, defaultRows: 24 },
    runtime: {
      caps: { maxControllers: 4, maxObservers: 8 },
      keyframeIntervalMs: 60_000,
      keyframeIntervalFrames: 100_000,
      outputCoalesceMs: 5,
      outputFrameBytes: 32768,
      logger: silentLogger,
    },
  });
  managers.push(m);
  current = m;
  return m;
}

/** The edge outlives the agent restart: it always talks to the current incarnation. */
const control = new Proxy({} as SessionControl, {
  get: (_t, prop: keyof SessionControl) => {
    const v = current[prop];
    return typeof v === 'function' ? v.bind(current) : v;
  },
});

beforeAll(async () => {
  startAgent();
  const config = loadConfig({}, { host: '127.0.0.1', port: 0, grpcPort: 0, instanceId: INSTANCE, authEnabled: false });
  edge = await startEdge({
    config,
    control,
    log,
    registry,
    tokens: new MemoryTokenStore(),
    logger: silentLogger,
    sessionHost: hosts.capabilities,
  });
});

afterAll(async () => {
  await edge.stop();
  for (const m of managers) await m.shutdown();
  agent.cleanup();
});

const attachUrl = (id: string) => `ws://127.0.0.1:${edge.port}/agents/${INSTANCE}/sessions/${id}/attach`;

async function connect(id: string): Promise<TestClient> {
  const c = await TestClient.connect(attachUrl(id));
  await c.hello();
  return c;
}

/** Types into the multiplexer directly, as if someone worked in it while no agent was attached. */
function typeDirectly(backend: ManagedBackend, id: string, line: string): void {
  const env = { PATH: PATH_ENV, SCREENDIR: hosts.paths.screenDir };
  if (backend === 'tmux') {
    execFileSync('tmux', ['-S', hosts.paths.tmuxSocket, 'send-keys', '-t', `=${id}:`, '-l', line], { env });
    execFileSync('tmux', ['-S', hosts.paths.tmuxSocket, 'send-keys', '-t', `=${id}:`, 'Enter'], { env });
  } else {
    const socket = screenSockets(hosts.paths).find((s) => s.endsWith(`.${id}`)) ?? id;
    // -p 0: a session that lost its display has no current window for -X commands.
    execFileSync('screen', ['-S', socket, '-p', '0', '-X', 'stuff', `${line}\r`], { env });
  }
}

/** The multiplexer's own view of the screen (hardcopies land in the agent's state dir). */
function multiplexerScreen(backend: ManagedBackend, id: string): Promise<string[]> {
  return viewScreen(backend, hosts.paths, id, agent.stateDir);
}

/** An interactive /bin/sh with a small prompt in a new session of `backend`; its id. */
async function shellSession(backend: ManagedBackend): Promise<string> {
  const rec = await current.createSession({
    instanceId: INSTANCE,
    argv: ['/bin/sh'],
    env: { PS1: '$ ', PATH: PATH_ENV },
    size: { cols: 80, rows: 24 },
    backend,
  });
  return rec.sessionId;
}

async function lastLogSeq(id: string): Promise<number> {
  return (await log.bounds(id)).lastSeq;
}

const managed = INSTALLED.length > 0 ? describe.each(INSTALLED) : describe.skip.each(['tmux' as ManagedBackend]);

/** Each test ends its sessions, even when it failed half-way, so the next one starts clean. */
afterEach(async () => {
  for (const rec of await registry.list({ instanceId: INSTANCE, state: 'running' })) {
    await current.killSession(rec.sessionId).catch(() => undefined);
    for (const h of hosts.managed) await h.discard(rec.sessionId);
  }
});

managed('%s: an agent restart re-attaches and continues the same log', (backend) => {
  it('no lost or duplicated sequences; the resync Keyframe equals the multiplexer screen', async () => {
    const id = await shellSession(backend);
    const before = await connect(id);
    await joinSession(before, { role: 'controller' }, { timeoutMs: 10_000 });
    before.input('echo before_$((1+1))\n');
    await before.collectOutput(/before_2/, 10_000);
    await before.settle(150);
    const seen = before.frames.filter(isLogFrame).map((r) => seqOf(r) as number);
    const lastSeen = Math.max(...seen);
    before.terminate();

    // The agent goes away without ending its managed sessions.
    expect(await current.detachAll()).toEqual([id]);
    await current.shutdown();
    expect(multiplexerSessions(backend, hosts.paths)).toContain(id);
    const seqAtDetach = await lastLogSeq(id);
    typeDirectly(backend, id, 'echo during_$((2+2))');
    await until('output while detached', async () =>
      (await multiplexerScreen(backend, id)).some((l) => l.includes('during_4')) ? true : undefined,
    );

    // A new incarnation finds it.
    const report = await startAgent().recoverManagedSessions();
    expect(report.reattached).toEqual([id]);
    expect(report.closed).toEqual([]);

    // The resync Keyframe: a log entry after the detach point, showing the multiplexer's screen.
    const resync = await until('the resync keyframe', async () => {
      const entries = await log.read(id, seqAtDetach);
      return entries.find(
        (e): e is EventEntry => e.type === 'event' && (e.payload as { kind?: string }).kind === 'Keyframe',
      );
    });
    const p = resync.payload as { snapshot: string; snapshot_cols: number; snapshot_rows: number };
    const keyframeLines = await snapshotLines(p.snapshot, p.snapshot_cols, p.snapshot_rows);
    expect(keyframeLines.some((l) => l.includes('during_4'))).toBe(true);
    expect(keyframeLines).toEqual(await multiplexerScreen(backend, id));

    // The whole log is gapless and duplicate-free across the restart.
    const all = (await log.read(id, 0)).map((e) => e.seq);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));

    // A client reconnecting with replay_from gets exactly what it missed, then live frames.
    const after = await connect(id);
    const flush = await joinSession(after, { role: 'controller' }, { replayFrom: lastSeen, timeoutMs: 10_000 });
    const replayed = flush.frames.filter((r: Received) => isLogFrame(r) || r === flush.keyframeFrame);
    const replayedSeqs = replayed.filter(isLogFrame).map((r) => seqOf(r) as number);
    expect(replayedSeqs[0]).toBe(lastSeen + 1);
    expect(new Set(replayedSeqs).size).toBe(replayedSeqs.length);
    const joinLines = await snapshotLines(
      flush.keyframe.snapshot,
      flush.keyframe.snapshot_cols,
      flush.keyframe.snapshot_rows,
    );
    expect(joinLines).toEqual(await multiplexerScreen(backend, id));
    const from = after.mark();
    after.input('echo after_$((3+3))\n');
    await after.collectOutput(/after_6/, 10_000, from);
    const liveSeqs = after.frames
      .slice(from)
      .filter(isLogFrame)
      .map((r) => seqOf(r) as number);
    expect(liveSeqs[0]).toBeGreaterThan(Math.max(...replayedSeqs));
    after.terminate();
    await current.killSession(id);
  });

  it('a program that ended while no agent was attached closes with its exit code on recovery', async () => {
    const id = await shellSession(backend);
    await new Promise((r) => setTimeout(r, 300));
    expect(await current.detachAll()).toEqual([id]);
    await current.shutdown();
    typeDirectly(backend, id, 'exit 5');
    await new Promise((r) => setTimeout(r, 500));
    const report = await startAgent().recoverManagedSessions();
    expect(report.reattached).toEqual([id]);
    const closed = await until('the session to close', async () => {
      const r = await registry.get(id);
      return r?.state === 'closed' ? r : undefined;
    });
    expect(closed.exitCode).toBe(5);
    expect(closed.closedReason).toBe('normal');
    const all = (await log.read(id, 0)).map((e) => e.seq);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
  });

  it('a record whose multiplexer session is gone is closed (reason error) with a Closed frame', async () => {
    const id = await shellSession(backend);
    expect(await current.detachAll()).toEqual([id]);
    await current.shutdown();
    await hosts.managed.find((h) => h.backend === backend)?.discard(id);
    await until('the multiplexer session to end', () =>
      multiplexerSessions(backend, hosts.paths).includes(id) ? undefined : true,
    );
    const report = await startAgent().recoverManagedSessions();
    expect(report.closed).toEqual([id]);
    const last = (await log.read(id, 0)).pop();
    expect(last?.type === 'event' && last.payload).toMatchObject({ kind: 'Closed', reason: 'error' });
    expect((await registry.get(id))?.state).toBe('closed');
  });
});

managed('%s: more output while no agent was attached than its history holds', (backend) => {
  it('the log says where output is missing, then has the newest of it', async () => {
    const id = await shellSession(backend);
    await until('the first prompt in the log', async () => ((await lastLogSeq(id)) > 0 ? true : undefined));
    expect(await current.detachAll()).toEqual([id]);
    await current.shutdown();
    const historyLines = backend === 'tmux' ? TMUX_HISTORY_LINES : SCREEN_HISTORY_LINES;
    const total = historyLines + 5000;
    typeDirectly(backend, id, `seq -f 'T%gE' 1 ${total}`);
    await until(
      'the last line',
      async () => ((await multiplexerScreen(backend, id)).includes(`T${total}E`) ? true : undefined),
      30_000,
    );

    expect((await startAgent().recoverManagedSessions()).reattached).toEqual([id]);
    const text = await until('the end of the output in the log', async () => {
      const out = (await log.read(id, 0)).flatMap((e) => (e.type === 'output' ? [Buffer.from(e.data)] : []));
      const t = visibleText(Buffer.concat(out).toString('utf8'));
      return t.includes(`T${total}E`) ? t : undefined;
    });
    const notice = text.indexOf("output is missing here: more than the multiplexer's history");
    expect(notice).toBeGreaterThan(-1);
    // After the notice: the newest lines the history kept, every one of them, in order (tmux
    // paints the re-attached client's first screen twice: each line counts once).
    const after = [...new Set([...text.slice(notice).matchAll(/T(\d+)E/g)].map((m) => Number(m[1])))];
    const first = after[0] ?? 0;
    expect(first).toBeGreaterThan(1);
    expect(total - first).toBeGreaterThan(historyLines * 0.8);
    expect(after).toEqual(Array.from({ length: total - first + 1 }, (_, i) => first + i));
    await current.killSession(id);
  });
});
