import { loadConfig } from '@pty-ws/config';
import {
  MemoryFrameLog,
  MemoryMembershipStore,
  MemorySessionRegistry,
  MemoryTaskStore,
  MemoryTokenStore,
} from '@pty-ws/adapters-memory';
import type { LogBounds, LogCut, LogEntry } from '@pty-ws/ports';
import { startEdge, type RunningEdge } from '@pty-ws/edge';
import {
  NodePtyHost,
  SessionManager,
  ShellTaskExecutor,
  TaskService,
  sessionHostCapabilities,
} from '@pty-ws/pty-agent';
import { TEST_AGENT_SETTINGS } from '@pty-ws/pty-agent/internal';
import { Metrics } from '@pty-ws/telemetry';
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
  /** While set, a read from the log's start (a join's `replay_from 0`) waits for it to resolve. */
  replayGate: Promise<void> | undefined;
  /** Resolved once a read waits at the gate. */
  replayWaiting = deferred();
  override async read(
    sessionId: string,
    afterSeq: number,
    opts?: { toSeq?: number; limit?: number },
  ): Promise<LogEntry[]> {
    if (afterSeq === 0 && this.replayGate) {
      this.replayWaiting.resolve();
      await this.replayGate;
    }
    return super.read(sessionId, afterSeq, opts);
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const INSTANCE = 'log-cut-once';
const log = new OutageLog();
const registry = new MemorySessionRegistry();
const agentLog: string[] = [];
const metrics = new Metrics({ defaultMetrics: false });
const manager = new SessionManager({
  agentId: 'agent-log-cut-once',
  instanceId: INSTANCE,
  registry,
  log,
  membershipStore: new MemoryMembershipStore(),
  ptyHost: new NodePtyHost(),
  tasks: new TaskService({ store: new MemoryTaskStore(), executor: new ShellTaskExecutor(10_000, 65536) }),
  metrics,
  ...TEST_AGENT_SETTINGS,
  runtime: {
    ...TEST_AGENT_SETTINGS.runtime,
    caps: { maxControllers: 1, maxObservers: 8 },
    logOutage: { bufferBytes: 1024 * 1024, giveUpMs: 300 },
    logger: { info: (_o, msg) => agentLog.push(msg), warn: (_o, msg) => agentLog.push(msg) },
  },
});
let edge: RunningEdge;
/** What the edge logged, at which level, for which session. */
const edgeLog: Array<{ level: string; msg: string; sessionId: unknown }> = [];
const recordAt =
  (level: string) =>
  (o: object, msg: string): void =>
    void edgeLog.push({ level, msg, sessionId: (o as { session_id?: unknown }).session_id });
const edgeLogger = {
  debug: recordAt('debug'),
  info: recordAt('info'),
  warn: recordAt('warn'),
  error: recordAt('error'),
};

beforeAll(async () => {
  const config = loadConfig({}, { host: '127.0.0.1', port: 0, grpcPort: 0, instanceId: INSTANCE, authEnabled: false });
  edge = await startEdge({
    config,
    control: manager,
    log,
    registry,
    tokens: new MemoryTokenStore(),
    logger: edgeLogger,
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

const cutsCounted = async (): Promise<number> => {
  const line = (await metrics.text()).split('\n').find((l) => l.startsWith('ptyws_frame_log_cuts_total '));
  return Number(line?.split(' ')[1] ?? 0);
};

async function newShell(): Promise<string> {
  const { sessionId } = await manager.createSession({
    instanceId: INSTANCE,
    argv: ['/bin/sh'],
    env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    size: { cols: 80, rows: 24 },
  });
  return sessionId;
}

/**
 * A reader still catching up when the session's `Closed` reaches its edge: it joined with
 * `replay_from 0`, and its replay's read of the log is held at the gate until released.
 */
async function heldReader(sessionId: string, typist: TestClient): Promise<{ reader: TestClient; release: () => void }> {
  const gate = deferred();
  log.replayWaiting = deferred();
  log.replayGate = gate.promise;
  const reader = await TestClient.connect(
    `ws://127.0.0.1:${edge.port}/agents/${INSTANCE}/sessions/${sessionId}/attach`,
  );
  await reader.hello();
  reader.send('pty.join_session', { role: 'observer' }, { replay_from: 0 });
  await log.replayWaiting.promise;
  // The owner took it in: its join is under way on the edge, its replay not sent.
  await typist.waitFor((r) => (sessionFrameOf(r, 'MembershipChanged')?.observers?.length ?? 0) === 1, 5000);
  return {
    reader,
    release: () => {
      log.replayGate = undefined;
      gate.resolve();
    },
  };
}

/** The frames that end the reader: its `Closed`, the Error after it (if any), the goodbye; close 1000. */
async function ending(c: TestClient): Promise<{ closed: Received[]; errors: Received[]; goodbye: Received }> {
  const goodbye = await c.waitFor((r) => jsonFrame(r)?.op === 'binding_goodbye', 10_000);
  expect(jsonFrame(goodbye)?.payload).toMatchObject({ reason: 'session_closed' });
  expect((await c.closed).code).toBe(1000);
  const closed = c.frames.filter(isClosed);
  const errors = c.frames.filter((r) => jsonFrame(r)?.op === 'Error');
  return { closed, errors, goodbye };
}

describe('a reader still catching up when the Closed arrives: an Error after Closed(error) only', () => {
  it('a cut session: the reader behind gets Closed(error), Error INTERNAL, the goodbye; so does one joining after', async () => {
    log.noticesLost = true; // the log's own Closed(error) comes first, while the reader is behind
    const cutsBefore = await cutsCounted();
    const sessionId = await newShell();
    const typist = await reader(sessionId, 'controller');
    const { reader: behind, release } = await heldReader(sessionId, typist);

    log.down = true;
    typist.input('echo during_the_outage\n');
    await waitUntil(async () => (await registry.get(sessionId))?.state === 'closed', 10_000, 'the session cut');
    log.down = false;
    // The log's Closed(error) was delivered on the edge: the typist, live, is ended by it.
    const last = await waitUntil(() => lastClosedInLog(sessionId), 10_000, 'Closed in the log');
    await ending(typist);
    // The owner tells the edge again after the log's Closed, while the reader behind keeps the
    // session's hub here: nothing more to end, so logged at debug, the cut itself at warn once.
    const told = (level: string, msg: string) =>
      edgeLog.filter((l) => l.sessionId === sessionId && l.level === level && l.msg === msg).length;
    await waitUntil(() => told('debug', 'frame log cut told again') >= 2, 10_000, 'notices again');
    expect(told('warn', 'frame log cut: ending the connections')).toBe(1);
    release();

    const lateJoin = await TestClient.connect(
      `ws://127.0.0.1:${edge.port}/agents/${INSTANCE}/sessions/${sessionId}/attach`,
    );
    await lateJoin.hello();
    lateJoin.send('pty.join_session', { role: 'observer' }, { replay_from: 0 });
    for (const c of [typist, behind, lateJoin]) {
      const { closed, errors, goodbye } = await ending(c);
      expect(closed.map((r) => [seqOf(r), sessionFrameOf(r, 'Closed')])).toEqual([
        [last.seq, { kind: 'Closed', exit_code: null, reason: 'error' }],
      ]);
      expect(errors.map((r) => jsonFrame(r)?.payload['code'])).toEqual(['INTERNAL']);
      expect(c.frames.indexOf(closed[0]!)).toBeLessThan(c.frames.indexOf(errors[0]!));
      expect(c.frames.indexOf(errors[0]!)).toBeLessThan(c.frames.indexOf(goodbye));
    }
    // The cut is counted once, by the owner.
    expect((await cutsCounted()) - cutsBefore).toBe(1);
  });

  it('a session that ended normally: the reader behind gets Closed(normal) and the goodbye, no Error', async () => {
    const cutsBefore = await cutsCounted();
    const sessionId = await newShell();
    const typist = await reader(sessionId, 'controller');
    const { reader: behind, release } = await heldReader(sessionId, typist);
    typist.input('exit 3\n');
    await ending(typist);
    release();
    for (const c of [typist, behind]) {
      const { closed, errors } = await ending(c);
      expect(closed.map((r) => sessionFrameOf(r, 'Closed'))).toEqual([
        { kind: 'Closed', exit_code: 3, reason: 'normal' },
      ]);
      expect(errors).toEqual([]);
    }
    expect(await cutsCounted()).toBe(cutsBefore);
  });
});
