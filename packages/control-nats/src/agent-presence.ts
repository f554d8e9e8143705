import type { NatsConnection } from '@nats-io/transport-node';
import type { SessionHostCapabilities } from '@pty-ws/protocol';
import type { AgentPresence } from './presence';
import { encodeJson } from './rpc';
import { subjects } from './subjects';

export interface AgentPresenceOptions {
  prefix: string;
  agentId: string;
  instanceId: string;
  sessionHost: SessionHostCapabilities;
  /** How often the announcement repeats; edges forget an agent silent for 5 intervals. */
  intervalMs?: number;
}

export const AGENT_PRESENCE_INTERVAL_MS = 2000;

/**
 * Announces this agent's session-host capabilities on `<prefix>.agents.presence`: at start,
 * every interval, and at once when an edge asks (`<prefix>.agents.discover`, sent by an edge
 * starting). `stop` says goodbye so edges stop advertising what only this agent hosted.
 */
export function startAgentPresence(nc: NatsConnection, opts: AgentPresenceOptions): { stop(): Promise<void> } {
  const s = subjects(opts.prefix);
  const presence: AgentPresence = {
    agentId: opts.agentId,
    instanceId: opts.instanceId,
    sessionHost: opts.sessionHost,
  };
  const announce = (leaving = false) => {
    try {
      nc.publish(s.agentPresence(), encodeJson(leaving ? { ...presence, leaving: true } : presence));
    } catch {
      /* the connection is closing or reconnecting: the next interval repeats it */
    }
  };
  const discover = nc.subscribe(s.agentDiscover(), {
    callback: (err) => {
      if (!err) announce();
    },
  });
  const timer = setInterval(() => announce(), opts.intervalMs ?? AGENT_PRESENCE_INTERVAL_MS);
  timer.unref();
  announce();
  return {
    async stop() {
      clearInterval(timer);
      discover.unsubscribe();
      announce(true);
      await nc.flush().catch(() => undefined);
    },
  };
}
