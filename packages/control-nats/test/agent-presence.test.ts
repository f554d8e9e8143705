/**
 * Agents announce what their PTY bridge hosts; an edge's AgentDirectory turns the live
 * announcements into binding_hello.session_host and routes creation to an agent that can host
 * the backend. Real NATS, a prefix of this run.
 */
import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { MemorySessionRegistry } from '@pty-ws/adapters-memory';
import {
  AgentDirectory,
  NatsSessionControl,
  mergeSessionHosts,
  parsePresence,
  startAgentPresence,
  subjects,
} from '@pty-ws/control-nats';
import type { SessionBackend, SessionHostCapabilities } from '@pty-ws/protocol';

const NATS_URL = process.env['PTYWS_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';

function host(backends: SessionBackend[]): SessionHostCapabilities {
  return {
    supported_backends: ['native', ...backends],
    default_backend: 'native',
    supported_classes: backends.length > 0 ? ['direct', 'managed'] : ['direct'],
    default_class: 'direct',
    observe_supported: true,
    drive_supported: true,
    reattach_supported: true,
  };
}

async function until<T>(what: string, get: () => T | undefined, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('mergeSessionHosts / parsePresence', () => {
  it('unions backends and classes, keeps flags only when every agent has them', () => {
    expect(mergeSessionHosts([])).toBeUndefined();
    const merged = mergeSessionHosts([host(['screen']), host(['tmux']), { ...host([]), reattach_supported: false }]);
    expect(merged).toEqual({
      supported_backends: ['native', 'tmux', 'screen'],
      default_backend: 'native',
      supported_classes: ['direct', 'managed'],
      default_class: 'direct',
      observe_supported: true,
      drive_supported: true,
      reattach_supported: false,
    });
  });

  it('ignores malformed announcements instead of advertising them', () => {
    const good = { agentId: 'a', instanceId: 'i', sessionHost: host(['tmux']) };
    expect(parsePresence(good)).toEqual(good);
    expect(parsePresence({ ...good, sessionHost: { ...host([]), supported_backends: ['native', 'kitty'] } })).toBe(
      undefined,
    );
    expect(parsePresence({ ...good, sessionHost: { ...host([]), default_backend: 'tmux' } })).toBeUndefined();
    expect(parsePresence({ ...good, agentId: 7 })).toBeUndefined();
    expect(parsePresence('hello')).toBeUndefined();
  });
});

describe('AgentDirectory over NATS', () => {
  const prefix = `ptywstest_${randomBytes(4).toString('hex')}`;
  let agentNc: NatsConnection;
  let edgeNc: NatsConnection;

  beforeAll(async () => {
    agentNc = await connect({ servers: NATS_URL, name: 'presence-agents' });
    edgeNc = await connect({ servers: NATS_URL, name: 'presence-edge' });
  });
  afterAll(async () => {
    await agentNc.close();
    await edgeNc.close();
  });

  it('an edge starting after the agents learns them at once (discover), and forgets leavers', async () => {
    const tmuxAgent = startAgentPresence(agentNc, {
      prefix,
      agentId: 'with-tmux',
      instanceId: 'inst',
      sessionHost: host(['tmux']),
      intervalMs: 60_000, // only the first announcement and the discover answer count here
    });
    const plain = startAgentPresence(agentNc, {
      prefix,
      agentId: 'plain',
      instanceId: 'inst',
      sessionHost: host([]),
      intervalMs: 60_000,
    });
    const other = startAgentPresence(agentNc, {
      prefix,
      agentId: 'elsewhere',
      instanceId: 'other-inst',
      sessionHost: host(['screen']),
      intervalMs: 60_000,
    });
    await agentNc.flush();
    const dir = await AgentDirectory.start(edgeNc, { prefix });
    try {
      await until('both agents of inst', () => (dir.live('inst').length === 2 ? true : undefined));
      expect(dir.sessionHost('inst')?.supported_backends).toEqual(['native', 'tmux']);
      expect(dir.sessionHost('other-inst')?.supported_backends).toEqual(['native', 'screen']);
      expect(dir.sessionHost('nobody')).toBeUndefined();
      // Only one agent hosts tmux: creation goes to it; native goes to the queue group.
      for (let i = 0; i < 10; i++) expect(dir.agentFor('inst', 'tmux')).toBe('with-tmux');
      expect(dir.agentFor('inst', 'native')).toBeUndefined();
      expect(dir.agentFor('inst', undefined)).toBeUndefined();
      expect(dir.agentFor('inst', 'zellij')).toBeUndefined();

      await tmuxAgent.stop();
      await until('the leaver to go', () => (dir.live('inst').length === 1 ? true : undefined));
      expect(dir.sessionHost('inst')?.supported_backends).toEqual(['native']);
      expect(dir.sessionHost('inst')?.supported_classes).toEqual(['direct']);
    } finally {
      dir.dispose();
      await plain.stop();
      await other.stop();
    }
  });

  it('NatsSessionControl places a backend only some agents host on one of them, the rest on the queue', async () => {
    const p = `${prefix}p`;
    const s = subjects(p);
    const answered: string[] = [];
    // Stand-ins for two agents' control subjects and the placement queue: each says who answered.
    const reply = (who: string) => (err: Error | null, msg: { respond(d: Uint8Array): boolean }) => {
      if (err) return;
      answered.push(who);
      msg.respond(
        new TextEncoder().encode(JSON.stringify({ ok: true, result: { sessionId: `s-${who}`, agentId: who } })),
      );
    };
    const subs = [
      agentNc.subscribe(s.agentControl('with-tmux'), { callback: reply('with-tmux') }),
      agentNc.subscribe(s.agentControl('plain'), { callback: reply('plain') }),
      agentNc.subscribe(s.placement('inst'), { queue: s.placementQueue('inst'), callback: reply('queue') }),
    ];
    const a = startAgentPresence(agentNc, {
      prefix: p,
      agentId: 'with-tmux',
      instanceId: 'inst',
      sessionHost: host(['tmux']),
    });
    const b = startAgentPresence(agentNc, { prefix: p, agentId: 'plain', instanceId: 'inst', sessionHost: host([]) });
    await agentNc.flush();
    const dir = await AgentDirectory.start(edgeNc, { prefix: p });
    try {
      await until('both agents', () => (dir.live('inst').length === 2 ? true : undefined));
      const control = new NatsSessionControl(edgeNc, {
        prefix: p,
        registry: new MemorySessionRegistry(),
        placement: (instanceId, backend) => dir.agentFor(instanceId, backend),
      });
      for (let i = 0; i < 5; i++) {
        expect((await control.createSession({ instanceId: 'inst', backend: 'tmux' })).agentId).toBe('with-tmux');
      }
      expect((await control.createSession({ instanceId: 'inst' })).agentId).toBe('queue');
      expect((await control.createSession({ instanceId: 'inst', backend: 'native' })).agentId).toBe('queue');
      expect(answered).toEqual([...Array(5).fill('with-tmux'), 'queue', 'queue']);
    } finally {
      dir.dispose();
      await a.stop();
      await b.stop();
      for (const sub of subs) sub.unsubscribe();
    }
  });

  it('an agent that goes silent expires; a malformed announcement is ignored', async () => {
    const dir = await AgentDirectory.start(edgeNc, { prefix: `${prefix}x`, expireMs: 300, firstWaitMs: 50 });
    try {
      const s = subjects(`${prefix}x`);
      agentNc.publish(
        s.agentPresence(),
        JSON.stringify({ agentId: 'bad', instanceId: 'inst', sessionHost: { supported_backends: 'all' } }),
      );
      agentNc.publish(
        s.agentPresence(),
        JSON.stringify({ agentId: 'once', instanceId: 'inst', sessionHost: host(['screen']) }),
      );
      await agentNc.flush();
      await until('the announcement', () => dir.sessionHost('inst'));
      expect(dir.live('inst').map((a) => a.agentId)).toEqual(['once']);
      await until('expiry', () => (dir.sessionHost('inst') === undefined ? true : undefined), 3000);
    } finally {
      dir.dispose();
    }
  });
});
