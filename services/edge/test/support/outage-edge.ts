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
import { TestClient, joinSession, jsonFrame, sessionFrameOf, type Received } from '@pty-ws/testkit';

/**
 * The real owner (SessionManager, a shell) and edge in one process, over a memory log that is
 * unreachable while `down` (and takes no appends while `writesDown`): for the tests of a session
 * whose frame log was given up.
 */
export class OutageLog extends MemoryFrameLog {
  down = false;
  /** The log can be read but takes no appends yet (its owner cannot write its `Closed`). */
  writesDown = false;
  /** Notices sent while `down` are lost, as for an edge whose own log connection is down too. */
  noticesLost = false;
  override append(sessionId: string, entry: LogEntry): Promise<void> {
    return this.down || this.writesDown
      ? Promise.reject(new Error('the frame log is unreachable'))
      : super.append(sessionId, entry);
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
    if (this.down) throw new Error('the frame log is unreachable');
    return super.read(sessionId, afterSeq, opts);
  }
}

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export interface OutageEdge {
  readonly log: OutageLog;
  readonly registry: MemorySessionRegistry;
  readonly manager: SessionManager;
  readonly metrics: Metrics;
  /** What the owner logged (its messages). */
  readonly agentLog: string[];
  /** What the edge logged, at which level, for which session. */
  readonly edgeLog: Array<{ level: string; msg: string; sessionId: unknown }>;
  /** The attach URL of the session on the edge (started in beforeAll). */
  url(sessionId: string): string;
  /** A new /bin/sh session. */
  newShell(): Promise<string>;
  /** Connected, hello received; not joined. */
  attach(sessionId: string): Promise<TestClient>;
  /** Connected and joined with `role`. */
  reader(sessionId: string, role: 'controller' | 'observer'): Promise<TestClient>;
  /** The log's last entry when it is a `Closed`. */
  lastClosedInLog(sessionId: string): Promise<LogEntry | undefined>;
}

/** Starts the owner and the edge for the test file (beforeAll), stops them after it (afterAll). */
export function useOutageEdge(instance: string): OutageEdge {
  const log = new OutageLog();
  const registry = new MemorySessionRegistry();
  const agentLog: string[] = [];
  const metrics = new Metrics({ defaultMetrics: false });
  const manager = new SessionManager({
    agentId: `agent-${instance}`,
    instanceId: instance,
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
  let edge: RunningEdge | undefined;
  const edgeLog: OutageEdge['edgeLog'] = [];
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
    const config = loadConfig(
      {},
      { host: '127.0.0.1', port: 0, grpcPort: 0, instanceId: instance, authEnabled: false },
    );
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
    await edge?.stop();
    await manager.shutdown();
  });

  const url = (sessionId: string): string =>
    `ws://127.0.0.1:${edge?.port ?? 0}/agents/${instance}/sessions/${sessionId}/attach`;
  const attach = async (sessionId: string): Promise<TestClient> => {
    const c = await TestClient.connect(url(sessionId));
    await c.hello();
    return c;
  };
  return {
    log,
    registry,
    manager,
    metrics,
    agentLog,
    edgeLog,
    url,
    attach,
    async newShell() {
      const { sessionId } = await manager.createSession({
        instanceId: instance,
        argv: ['/bin/sh'],
        env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
        size: { cols: 80, rows: 24 },
      });
      return sessionId;
    },
    async reader(sessionId, role) {
      const c = await attach(sessionId);
      await joinSession(c, { role });
      return c;
    },
    async lastClosedInLog(sessionId) {
      const { lastSeq } = await log.bounds(sessionId);
      const [last] = await log.read(sessionId, lastSeq - 1);
      return last?.type === 'event' && last.payload['kind'] === 'Closed' ? last : undefined;
    },
  };
}

export const isClosed = (r: Received): boolean => sessionFrameOf(r, 'Closed') !== undefined;

/** The frames that end the reader: its `Closed`, the Error after it (if any), the goodbye; close 1000. */
export async function ending(c: TestClient): Promise<{ closed: Received[]; errors: Received[]; goodbye: Received }> {
  const goodbye = await c.waitFor((r) => jsonFrame(r)?.op === 'binding_goodbye', 10_000);
  expect(jsonFrame(goodbye)?.payload).toMatchObject({ reason: 'session_closed' });
  expect((await c.closed).code).toBe(1000);
  const closed = c.frames.filter(isClosed);
  const errors = c.frames.filter((r) => jsonFrame(r)?.op === 'Error');
  return { closed, errors, goodbye };
}
