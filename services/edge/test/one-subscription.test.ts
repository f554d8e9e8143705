import { loadConfig } from '@pty-ws/config';
import { MemoryFrameLog, MemorySessionRegistry, MemoryTokenStore } from '@pty-ws/adapters-memory';
import type { LogEntry, SessionControl, Unsubscribe } from '@pty-ws/ports';
import { TestClient, is } from '@pty-ws/testkit';
import { silentLogger, startEdge, type RunningEdge } from '@pty-ws/edge';
import { sessionHostCapabilities } from '@pty-ws/pty-agent';

/**
 * The edge follows a session through one frame-log subscription, its hub's: the Closed frame
 * that ends every connection is seen there too (ARCHITECTURE.md, Fan-out), and the subscription
 * goes with the session's last connection.
 */
class CountingLog extends MemoryFrameLog {
  readonly open = new Map<string, number>();
  override subscribe(sessionId: string, onEntry: (entry: LogEntry) => void): Unsubscribe {
    this.open.set(sessionId, (this.open.get(sessionId) ?? 0) + 1);
    const unsubscribe = super.subscribe(sessionId, onEntry);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.open.set(sessionId, (this.open.get(sessionId) ?? 1) - 1);
      unsubscribe();
    };
  }
}

const INSTANCE = 'one-sub';
const log = new CountingLog();
const registry = new MemorySessionRegistry();
// Hello and the close need no owner: nothing here joins, types or runs a task.
const control = new Proxy({} as SessionControl, {
  get: () => () => Promise.reject(new Error('no owner in this test')),
});
let edge: RunningEdge;

beforeAll(async () => {
  const config = loadConfig({}, { host: '127.0.0.1', port: 0, grpcPort: 0, instanceId: INSTANCE, authEnabled: false });
  edge = await startEdge({
    config,
    control,
    log,
    registry,
    tokens: new MemoryTokenStore(),
    logger: silentLogger,
    sessionHost: sessionHostCapabilities([]),
  });
});

afterAll(() => edge.stop());

async function session(id: string): Promise<string> {
  await registry.put({
    sessionId: id,
    instanceId: INSTANCE,
    agentId: 'nobody',
    spec: {
      argv: ['/bin/sh'],
      cwd: '/tmp',
      env: {},
      size: { cols: 80, rows: 24 },
      backend: 'native',
      sessionClass: 'direct',
    },
    state: 'running',
    createdAt: Date.now(),
  });
  return id;
}

const attach = async (id: string) => {
  const c = await TestClient.connect(`ws://127.0.0.1:${edge.port}/agents/${INSTANCE}/sessions/${id}/attach`);
  await c.hello();
  return c;
};

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('edge frame-log subscriptions', () => {
  it('one per session however many connections; a Closed frame seen through it ends them all', async () => {
    const id = await session('closing-one');
    const clients = [await attach(id), await attach(id), await attach(id)];
    await new Promise((r) => setImmediate(r));
    expect(log.open.get(id)).toBe(1);
    await log.append(id, {
      type: 'event',
      seq: 1,
      id: 'closed-frame',
      ts: Date.now(),
      op: 'pty.session_frame',
      payload: { kind: 'Closed', exit_code: 0, reason: 'normal' },
    });
    for (const c of clients) {
      expect((await c.closed).code).toBe(1000);
      expect(c.frames.some(is.op('binding_goodbye'))).toBe(true);
    }
    await until(() => log.open.get(id) === 0);
    expect(log.open.get(id)).toBe(0);
  });

  it('none left once the last connection of a session that did not close has gone', async () => {
    const id = await session('left-open');
    const c = await attach(id);
    await c.close();
    await until(() => log.open.get(id) === 0);
    expect(log.open.get(id)).toBe(0);
  });
});
