import { MemoryFrameLog, MemoryMembershipStore } from '@pty-ws/adapters-memory';
import type { JoinRequest, LogEntry, SessionRecord, SessionSpec } from '@pty-ws/ports';
import { NodePtyHost, SessionRuntime } from '@pty-ws/pty-agent';
import { TerminalState } from '@pty-ws/terminal-state';

/**
 * The attach-storm and cadence-keyframe paths of SessionRuntime, on a real PTY: joins in one turn
 * of the event loop share one MembershipChanged (each still before its keyframe), and a cadence
 * Keyframe logged at K always shows exactly the entries before K although output keeps flowing.
 */
const host = new NodePtyHost();
const SIZE = { cols: 80, rows: 24 };

function spec(argv: string[]): SessionSpec {
  return {
    argv,
    cwd: '/tmp',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TERM: 'xterm-256color' },
    size: SIZE,
    backend: 'native',
    sessionClass: 'direct',
  };
}

let n = 0;
function start(argv: string[], keyframeIntervalFrames = 100): { runtime: SessionRuntime; log: MemoryFrameLog } {
  const sessionId = `hot-${process.pid}-${++n}`;
  const record: SessionRecord = {
    sessionId,
    instanceId: 'test',
    agentId: 'agent',
    spec: spec(argv),
    state: 'running',
    createdAt: Date.now(),
  };
  const log = new MemoryFrameLog();
  const runtime = new SessionRuntime(record, host.spawn(sessionId, record.spec), 0, {
    caps: { maxControllers: 4, maxObservers: 1000 },
    keyframeIntervalMs: 60_000,
    keyframeIntervalFrames,
    outputCoalesceMs: 2,
    outputFrameBytes: 4096,
    log,
    retention: { minFrames: 1_000_000, minAgeMs: 86_400_000 },
    membershipStore: new MemoryMembershipStore(),
    logger: { info: () => {}, warn: () => {} },
  });
  return { runtime, log };
}

const observer = (clientId: string): JoinRequest => ({
  clientId,
  edgeId: 'edge',
  principalId: 'p',
  canControl: false,
  requestedRole: 'observer',
});

/** The client ids a MembershipChanged entry lists as observers. */
const observerIds = (e: LogEntry | undefined): string[] =>
  e?.type === 'event' ? (e.payload['observers'] as Array<{ client_id: string }>).map((o) => o.client_id) : [];

const kindOf = (e: LogEntry): string =>
  e.type === 'output' ? 'Output' : typeof e.payload['kind'] === 'string' ? e.payload['kind'] : e.op;

async function entries(log: MemoryFrameLog, sessionId: string): Promise<LogEntry[]> {
  return log.read(sessionId, 0);
}

const running: SessionRuntime[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.kill()));
});

describe('SessionRuntime membership under an attach storm', () => {
  it('answers joins of one turn with one MembershipChanged listing them all, before their keyframe', async () => {
    const { runtime, log } = start(['/bin/cat']);
    running.push(runtime);
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => runtime.join(observer(id))));
    const seqs = new Set(results.map((r) => r.membershipSeq));
    expect(seqs.size).toBe(1);
    const [membershipSeq] = [...seqs] as [number];
    for (const r of results) expect(r.keyframe.anchorSeq).toBeGreaterThanOrEqual(membershipSeq);
    const logged = await entries(log, runtime.sessionId);
    const changes = logged.filter((e) => kindOf(e) === 'MembershipChanged');
    expect(changes.map((e) => e.seq)).toEqual([membershipSeq]);
    expect(observerIds(changes[0])).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('logs a separate MembershipChanged for changes in different turns', async () => {
    const { runtime, log } = start(['/bin/cat']);
    running.push(runtime);
    const first = await runtime.join(observer('a'));
    const second = await runtime.join(observer('b'));
    await runtime.leave('a');
    expect(second.membershipSeq).toBeGreaterThan(first.membershipSeq);
    const changes = (await entries(log, runtime.sessionId)).filter((e) => kindOf(e) === 'MembershipChanged');
    expect(changes.map(observerIds)).toEqual([['a'], ['a', 'b'], ['b']]);
  });

  it('logs a pending MembershipChanged before Closed, never after it', async () => {
    const { runtime, log } = start(['/bin/cat']);
    const joined = runtime.join(observer('a'));
    await runtime.join(observer('b'));
    const leaving = runtime.leave('a');
    await runtime.kill();
    await leaving;
    await joined;
    const kinds = (await entries(log, runtime.sessionId)).map(kindOf);
    expect(kinds[kinds.length - 1]).toBe('Closed');
    expect(kinds.filter((k) => k === 'MembershipChanged').length).toBeGreaterThanOrEqual(2);
  });
});

describe('SessionRuntime cadence keyframes while output streams', () => {
  it('logs keyframes whose snapshot is exactly the log before them', async () => {
    const interval = 10;
    const { runtime, log } = start(['/bin/sh', '-c', 'seq 1 30000; printf "#END#"; exec cat'], interval);
    running.push(runtime);
    let logged: LogEntry[] = [];
    for (let i = 0; i < 200; i++) {
      logged = await entries(log, runtime.sessionId);
      const tail = logged.filter((e) => e.type === 'output').slice(-3);
      if (tail.some((e) => e.type === 'output' && Buffer.from(e.data).toString().includes('#END#'))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const keyframes = logged.filter((e) => kindOf(e) === 'Keyframe');
    const outputs = logged.filter((e) => e.type === 'output').length;
    expect(outputs).toBeGreaterThan(interval * 3);
    expect(keyframes.length).toBeGreaterThanOrEqual(1);
    expect(logged.map((e) => e.seq)).toEqual(logged.map((_, i) => i + 1)); // gapless, in order

    // Replay the log into a fresh terminal: at each Keyframe, its snapshot must equal the replay's.
    const replay = new TerminalState(SIZE);
    try {
      for (const e of logged) {
        if (e.type === 'output') replay.write(e.data);
        else if (kindOf(e) === 'Resize') replay.resize(Number(e.payload['cols']), Number(e.payload['rows']));
        else if (kindOf(e) === 'Keyframe') {
          expect(e.payload['anchor_sequence']).toBe(e.seq - 1);
          const expected = await replay.snapshot();
          const got = Buffer.from(String(e.payload['snapshot']), 'base64').toString('utf8');
          expect(got).toBe(expected.snapshot);
        }
      }
    } finally {
      replay.dispose();
    }
  }, 60_000);
});
