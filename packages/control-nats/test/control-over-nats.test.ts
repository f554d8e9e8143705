import { randomBytes } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { MemoryFrameLog, MemorySessionRegistry } from '@pty-ws/adapters-memory';
import { serveSessionControl, startEdgeHeartbeat, type NatsSessionControl } from '@pty-ws/control-nats';
import { subjects } from '../src/subjects';
import type { LogEntry } from '@pty-ws/ports';
import { BindingError } from '@pty-ws/protocol';
import type { SessionManager } from '@pty-ws/pty-agent';
import { ManualClock } from '@pty-ws/testkit';
import { startOwnerOverNats, type OwnerOverNats } from './owner-over-nats';

/** The agent and the edge client share the log and registry here; only control goes over NATS. */
/** Dotted ids, as a hostname-derived agent id has: each must stay one subject token. */
const AGENT = 'agent-a.node1.example.com';
const INSTANCE = 'inst.eu-1';

describe('SessionControl over NATS request/reply', () => {
  const prefix = `ptywstest_${randomBytes(4).toString('hex')}`;
  const log = new MemoryFrameLog();
  const registry = new MemorySessionRegistry();
  let agentNc: NatsConnection;
  let edgeNc: NatsConnection;
  let manager: SessionManager;
  let control: NatsSessionControl;
  let owner: OwnerOverNats;
  /** The agent's edge liveness: time moves only when the dead-edge test says so. */
  const agentClock = new ManualClock();
  const EDGE_TIMEOUT_MS = 600;
  /** The reaper looks every quarter of the timeout. */
  const REAP_EVERY_MS = EDGE_TIMEOUT_MS / 4;

  beforeAll(async () => {
    owner = await startOwnerOverNats({
      prefix,
      agentId: AGENT,
      instanceId: INSTANCE,
      log,
      registry,
      edgeTimeoutMs: EDGE_TIMEOUT_MS,
      clock: agentClock,
    });
    ({ agentNc, edgeNc, manager, control } = owner);
  });

  afterAll(() => owner.stop());

  const outputOf = (sessionId: string, pattern: RegExp, timeoutMs = 5000) =>
    new Promise<void>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => {
        unsub();
        reject(new Error(`no ${pattern} in ${JSON.stringify(text)}`));
      }, timeoutMs);
      const unsub = log.subscribe(sessionId, (e: LogEntry) => {
        if (e.type !== 'output') return;
        text += Buffer.from(e.data).toString();
        if (pattern.test(text)) {
          clearTimeout(timer);
          unsub();
          resolve();
        }
      });
    });

  /** Joins as a controller that may control, from `edgeId`. */
  const joinController = (sessionId: string, clientId: string, edgeId = 'edge-1') =>
    control.join(sessionId, { clientId, edgeId, principalId: 'p', canControl: true, requestedRole: 'controller' });

  it('places a session on a live agent of the instance, and routes join and input to it', async () => {
    const rec = await control.createSession({ instanceId: INSTANCE, argv: ['/bin/sh'] });
    expect(rec.agentId).toBe(AGENT);
    const joined = await joinController(rec.sessionId, 'c1');
    expect(joined.grant.role).toBe('controller');
    expect(joined.keyframe.anchorSeq).toBeGreaterThanOrEqual(joined.membershipSeq);
    const seen = outputOf(rec.sessionId, /nats_84/);
    await control.input(rec.sessionId, 'c1', new TextEncoder().encode('echo nats_$((42*2))\n'));
    await seen;
  });

  it('keeps input order across many keystrokes published back to back', async () => {
    const rec = await control.createSession({ instanceId: INSTANCE, argv: ['/bin/cat'] });
    await joinController(rec.sessionId, 'c2');
    const expected = Array.from({ length: 200 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const seen = outputOf(rec.sessionId, new RegExp(expected));
    for (const ch of expected) await control.input(rec.sessionId, 'c2', new TextEncoder().encode(ch));
    await control.input(rec.sessionId, 'c2', new TextEncoder().encode('\n'));
    await seen;
  });

  it("carries an edge's pace report to the owner: output waits while that edge's readers are all behind", async () => {
    const rec = await control.createSession({ instanceId: INSTANCE, argv: ['/bin/sh'] });
    await joinController(rec.sessionId, 'c-pace');
    expect(await control.pace(rec.sessionId, 'edge-1', true)).toBe(true); // the owner says it holds
    const seen = outputOf(rec.sessionId, /paced_9/, 5000);
    let arrived = false;
    void seen.then(() => (arrived = true)).catch(() => undefined);
    await control.input(rec.sessionId, 'c-pace', new TextEncoder().encode('echo paced_$((3*3))\n'));
    await new Promise((r) => setTimeout(r, 300)); // well inside the report's 1 s lifetime
    expect(arrived).toBe(false);
    expect(await control.pace(rec.sessionId, 'edge-1', false)).toBe(false);
    await seen;
  });

  it('carries binding errors back with their code', async () => {
    const rec = await control.createSession({ instanceId: INSTANCE, argv: ['/bin/sh'] });
    await expect(control.getTask(rec.sessionId, 'no-such-task')).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    await expect(control.createSession({ instanceId: INSTANCE, backend: 'zellij' })).rejects.toBeInstanceOf(
      BindingError,
    );
    await expect(control.createSession({ instanceId: 'nobody-serves-this' })).rejects.toMatchObject({
      code: 'INTERNAL',
    });
  });

  it("a creation sent while the instance's agent is still subscribing reaches it once it serves", async () => {
    const LATE = 'inst.late-1';
    const created = control.createSession({ instanceId: LATE, argv: ['/bin/sh'] });
    const settled = created.then(
      () => 'created',
      (err: Error) => err.message,
    );
    // The first attempt finds no responders; an agent subscribes 400 ms later (an agent restart).
    // It is this test's manager, which serves another instance: its refusal proves the request
    // reached it (without the retry the caller got "no agent is serving it").
    await new Promise((r) => setTimeout(r, 400));
    const late = serveSessionControl(agentNc, { prefix, agentId: `${AGENT}-late`, instanceId: LATE, control: manager });
    try {
      expect(await settled).toMatch(/instance 'inst\.late-1' is not served by agent/);
    } finally {
      await late.stop();
    }
  });

  it('serves only SessionControl methods: anything else on the control subject is refused, not called', async () => {
    for (const method of ['input', 'releaseEdge', 'constructor', 'toString', 'detachAll', 'shutdown']) {
      const msg = await edgeNc.request(
        subjects(prefix).agentControl(AGENT),
        new TextEncoder().encode(JSON.stringify({ method, args: [] })),
        { timeout: 5000 },
      );
      const reply = JSON.parse(new TextDecoder().decode(msg.data)) as { ok: boolean; error?: { message: string } };
      expect(reply.ok).toBe(false);
      expect(reply.error?.message).toContain(`unknown control method ${method}`);
    }
    expect(manager.sessionCount).toBeGreaterThan(0); // shutdown and detachAll were not called
  });

  it('runs a task on the owner and returns its final state', async () => {
    const rec = await control.createSession({ instanceId: INSTANCE, argv: ['/bin/sh'] });
    const task = await control.sendMessage(rec.sessionId, {
      message: { message_id: 'm', role: 'ROLE_USER', parts: [{ text: 'exit 4' }] },
    });
    expect(task.status.state).toBe('FAILED');
    expect(task.metadata?.['exit_code']).toBe(4);
  });

  it("releases a dead edge's roles once it has been silent for edgeTimeoutMs, not before", async () => {
    const rec = await control.createSession({ instanceId: INSTANCE, argv: ['/bin/sh'] });
    // One beat, then silence: the edge's own clock never moves, so it never beats again.
    const heartbeat = startEdgeHeartbeat(edgeNc, { prefix, edgeId: 'edge-doomed', clock: new ManualClock() });
    // Published on the same connection before the join: the agent has heard the beat when it answers.
    await joinController(rec.sessionId, 'held', 'edge-doomed');
    // The cap is 1: while the doomed edge's member holds control, a second controller is downgraded.
    const second = await joinController(rec.sessionId, 'next', 'edge-2');
    expect(second.grant).toMatchObject({ role: 'observer', downgraded: true });
    agentClock.advance(EDGE_TIMEOUT_MS); // silent for exactly the timeout: still alive
    expect((await control.setRole(rec.sessionId, 'next', 'controller', true)).grant.role).toBe('observer');
    agentClock.advance(REAP_EVERY_MS); // past it, at the reaper's next look: dead, its member released
    expect((await control.setRole(rec.sessionId, 'next', 'controller', true)).grant.role).toBe('controller');
    heartbeat.dispose();
  });
});
