import type { Disposable } from '@pty-ws/ports';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { SessionBackend, SessionHostCapabilities } from '@pty-ws/protocol';
import { AGENT_PRESENCE_INTERVAL_MS } from './agent-presence';
import { mergeSessionHosts, parsePresence, type AgentPresence } from './presence';
import { decodeJson } from './rpc';
import { subjects } from './subjects';

export interface AgentDirectoryOptions {
  prefix: string;
  /** An agent not heard from this long is gone (default: five announcement intervals). */
  expireMs?: number;
  /** How long start() waits for a first announcement before resolving anyway. */
  firstWaitMs?: number;
}

interface Known extends AgentPresence {
  seenAt: number;
}

/**
 * An edge's view of the agents alive in the cluster and what each can host, kept from their
 * presence announcements. Edges use it for `binding_hello.session_host` and to place a session
 * that needs a backend not every agent has on one that has it.
 */
export class AgentDirectory implements Disposable {
  private readonly agents = new Map<string, Known>();
  private readonly expireMs: number;
  private sub: Subscription | undefined;
  private firstSeen: (() => void) | undefined;

  private constructor(opts: AgentDirectoryOptions) {
    this.expireMs = opts.expireMs ?? 5 * AGENT_PRESENCE_INTERVAL_MS;
  }

  /** Subscribes, asks every agent to announce itself, and waits briefly for the first answer. */
  static async start(nc: NatsConnection, opts: AgentDirectoryOptions): Promise<AgentDirectory> {
    const dir = new AgentDirectory(opts);
    const s = subjects(opts.prefix);
    const first = new Promise<void>((resolve) => (dir.firstSeen = resolve));
    dir.sub = nc.subscribe(s.agentPresence(), {
      callback: (err, msg) => {
        if (err) return;
        let presence: AgentPresence | undefined;
        try {
          presence = parsePresence(decodeJson<unknown>(msg.data));
        } catch {
          presence = undefined;
        }
        if (presence) dir.record(presence);
      },
    });
    await nc.flush(); // the subscription is in place before anyone answers the discover
    nc.publish(s.agentDiscover());
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([first, new Promise<void>((r) => (timer = setTimeout(r, opts.firstWaitMs ?? 1000)))]);
    clearTimeout(timer);
    return dir;
  }

  private record(p: AgentPresence): void {
    if (p.leaving) {
      this.agents.delete(p.agentId);
      return;
    }
    this.agents.set(p.agentId, { ...p, seenAt: Date.now() });
    this.firstSeen?.();
    this.firstSeen = undefined;
  }

  /** The live agents serving an instance. */
  live(instanceId: string): AgentPresence[] {
    const now = Date.now();
    const out: AgentPresence[] = [];
    for (const [id, a] of this.agents) {
      if (now - a.seenAt > this.expireMs) this.agents.delete(id);
      else if (a.instanceId === instanceId) out.push(a);
    }
    return out;
  }

  /** What the instance's live agents can host together; undefined while none is known. */
  sessionHost(instanceId: string): SessionHostCapabilities | undefined {
    return mergeSessionHosts(this.live(instanceId).map((a) => a.sessionHost));
  }

  /**
   * The agent to create a session with this backend on, when not every live agent hosts it;
   * undefined when any agent will do (or none can, and the placement's refusal is the answer).
   */
  agentFor(instanceId: string, backend: SessionBackend | undefined): string | undefined {
    if (backend === undefined) return undefined;
    const live = this.live(instanceId);
    const able = live.filter((a) => a.sessionHost.supported_backends.includes(backend));
    if (able.length === 0 || able.length === live.length) return undefined;
    return able[Math.floor(Math.random() * able.length)]!.agentId;
  }

  /**
   * Every live agent of the instance that can host `backend` (any backend when undefined), in a
   * random order: where to try next when the agent a creation went to is at its session cap.
   */
  agentsFor(instanceId: string, backend: SessionBackend | undefined): string[] {
    const able = this.live(instanceId)
      .filter((a) => backend === undefined || a.sessionHost.supported_backends.includes(backend))
      .map((a) => a.agentId);
    for (let i = able.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [able[i], able[j]] = [able[j]!, able[i]!];
    }
    return able;
  }

  dispose(): void {
    this.sub?.unsubscribe();
    this.firstSeen?.();
  }
}
