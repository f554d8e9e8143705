import { loadConfig } from '@pty-ws/config';
import {
  MemoryFrameLog,
  MemoryMembershipStore,
  MemorySessionRegistry,
  MemoryTaskStore,
  MemoryTokenStore,
} from '@pty-ws/adapters-memory';
import type { LogBounds, LogCut, LogEntry } from '@pty-ws/ports';
import { silentLogger, startEdge, type RunningEdge } from '@pty-ws/edge';
import {
  NodePtyHost,
  SessionManager,
  ShellTaskExecutor,
  TaskService,
  sessionHostCapabilities,
} from '@pty-ws/pty-agent';
import { TEST_AGENT_SETTINGS } from '@pty-ws/pty-agent/internal';
import { TestClient, joinSession, jsonFrame, seqOf, sessionFrameOf, waitUntil, type Received } from '@pty-ws/testkit';

/**
 * A session whose frame log was given up ends once on every reader: one `Closed` reason `error`,
 * an Error, the goodbye. Its owner tells the readers by two paths: the cut notice beside the log
 * (at once, then again right after the next append), and the log's own `Closed`, appended once the
 * log is back. Whichever reaches the edge first, the other must not make a second `Closed`. The
 * real owner (SessionManager, a shell) and edge in one process, over a memory log that is
 * unreachable while `down`.
 */
class OutageLog extends MemoryFrameLog {
  down = false;
  /** Notices sent while `down` are lost, as for an edge whose own log connection is down too. */
  noticesLost = false;
  override append(sessionId: string, entry: LogEntry): Promise<void> {
    return this.down ? Promise.reject(new Error('the frame log is unreachable')) : super.append(sessionId, entry);
  }
  override bounds(sessionId: string): Promise<LogBounds> {
    return this.down ? Promise.reject(new Error('the frame log is unreachable')) : super.bounds(sessionId);
  }
  override announceCut(sessionId: string, cut: LogCut): void {
    if (!(this.down && this.noticesLost)) super.announceCut(sessionId, cut);
  }
}

const INSTANCE = 'log-cut-once';
const log = new OutageLog();
const registry = new MemorySessionRegistry();
const agentLog: string[] = [];
const manager = new SessionManager({
  agentId: 'agent-log-cut-once',
  instanceId: INSTANCE,
  registry,
  log,
  membershipStore: new MemoryMembershipStore(),
  ptyHost: new NodePtyHost(),
  tasks: new TaskService({ store: new MemoryTaskStore(), executor: new ShellTaskExecutor(10_000, 65536) }),
  ...TEST_AGENT_SETTINGS,
  runtime: {
    ...TEST_AGENT_SETTINGS.runtime,
    caps: { maxControllers: 1, maxObservers: 8 },
    logOutage: { bufferBytes: 1024 * 1024, giveUpMs: 300 },
    logger: { info: (_o, msg) => agentLog.push(msg), warn: (_o, msg) => agentLog.push(msg) },
  },
});
let edge: RunningEdge;

beforeAll(async () => {
  const config = loadConfig({}, { host: '127.0.0.1', port: 0, grpcPort: 0, instanceId: INSTANCE, authEnabled: false });
  edge = await startEdge({
    config,
    control: manager,
    log,
    registry,
    tokens: new MemoryTokenStore(),
    logger: silentLogger,
    sessionHost: sessionHostCapabilities([]),
  });
});

afterAll(async () => {
  await edge.stop();
  await manager.shutdown();
});

async function reader(sessionId: string, role: 'controller' | 'observer'): Promise<TestClient> {
  const c = await TestClient.connect(`ws://127.0.0.1:${edge.port}/agents/${INSTANCE}/sessions/${sessionId}/attach`);
  await c.hello();
  await joinSession(c, { role });
  return c;
}

const isClosed = (r: Received) => sessionFrameOf(r, 'Closed') !== undefined;

const lastClosedInLog = async (sessionId: string): Promise<LogEntry | undefined> => {
  const { lastSeq } = await log.bounds(sessionId);
  const [last] = await log.read(sessionId, lastSeq - 1);
  return last?.type === 'event' && last.payload['kind'] === 'Closed' ? last : undefined;
};

describe('a session whose frame log was given up ends once on every reader: one Closed(error), an Error, the goodbye', () => {
  it.each([
    ['the notices of the outage are lost: the log comes first, the notice right after it', true],
    ['the first notice reaches the edge: it comes first, the log after the readers have gone', false],
  ])('%s', async (_case, noticesLost) => {
    log.noticesLost = noticesLost;
    const { sessionId } = await manager.createSession({
      instanceId: INSTANCE,
      argv: ['/bin/sh'],
      env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      size: { cols: 80, rows: 24 },
    });
    const typist = await reader(sessionId, 'controller');
    const watcher = await reader(sessionId, 'observer');
    typist.input('echo before_$((6*7))\n');
    for (const c of [typist, watcher]) await c.collectOutput(/before_42/, 5000);

    // The log goes away; output is due meanwhile, so the owner gives the log up and ends the session.
    agentLog.length = 0;
    log.down = true;
    typist.input('echo during_the_outage\n');
    await waitUntil(
      async () => (await registry.get(sessionId))?.state === 'closed',
      10_000,
      'the session ended by the outage',
    );
    expect(agentLog).toContain('frame log append failed for good: closing the session');
    // Told by the notice alone, the readers are gone while the log is still away.
    if (!noticesLost) for (const c of [typist, watcher]) expect((await c.closed).code).toBe(1000);
    // Back: the owner appends Closed(error) after what the log holds, then tells the readers again.
    log.down = false;

    for (const c of [typist, watcher]) {
      const goodbye = await c.waitFor((r) => jsonFrame(r)?.op === 'binding_goodbye', 10_000);
      expect(jsonFrame(goodbye)?.payload).toMatchObject({ reason: 'session_closed' });
      expect((await c.closed).code).toBe(1000);
      // One Closed, and nothing of the log after it: it carries the highest sequence the reader got.
      const closed = c.frames.filter(isClosed);
      const highest = Math.max(...c.frames.map((r) => seqOf(r) ?? 0));
      expect(closed.map((r) => [seqOf(r), sessionFrameOf(r, 'Closed')])).toEqual([
        [highest, { kind: 'Closed', exit_code: null, reason: 'error' }],
      ]);
      const error = c.frames.find((r) => jsonFrame(r)?.op === 'Error');
      expect(error && jsonFrame(error)?.payload).toMatchObject({ code: 'INTERNAL' });
      expect(c.frames.indexOf(closed[0]!)).toBeLessThan(c.frames.indexOf(error!));
      expect(c.frames.indexOf(error!)).toBeLessThan(c.frames.indexOf(goodbye));
    }
    // The log ends in one Closed(error), right after what it held; the session's status says error.
    const last = await waitUntil(() => lastClosedInLog(sessionId), 10_000, 'Closed in the log');
    const entries = await log.read(sessionId, 0);
    expect(entries.filter((e) => e.type === 'event' && e.payload['kind'] === 'Closed')).toEqual([last]);
    expect(last.type === 'event' && last.payload).toEqual({ kind: 'Closed', exit_code: null, reason: 'error' });
    // The Closed each reader got is that one, by its number.
    for (const c of [typist, watcher]) expect(c.frames.filter(isClosed).map(seqOf)).toEqual([last.seq]);
    expect(await registry.get(sessionId)).toMatchObject({ state: 'closed', closedReason: 'error', exitCode: null });
  });
});
