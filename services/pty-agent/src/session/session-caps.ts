import { BindingError } from '@pty-ws/protocol';
import type { SessionRegistry } from '@pty-ws/ports';

export interface SessionCapsOptions {
  /** PTYWS_MAX_SESSIONS_PER_AGENT */
  maxPerAgent: number;
  /** PTYWS_MAX_SESSIONS_PER_INSTANCE */
  maxPerInstance: number;
  registry: SessionRegistry;
  instanceId: string;
  agentId: string;
}

/**
 * Caps on running sessions (issue "Abuse and resource limits"): per agent, counted by the agent
 * itself, and per instance, counted from the registry every agent writes (cluster-wide). Creations
 * in flight on this agent count too, so a burst cannot overshoot; creations in flight on other
 * agents at the same moment can (by at most one per agent). Refusals are `RATE_LIMITED` with
 * `data.limit` naming the cap, which the edge counts in `ptyws_rate_limited_total{limit}`.
 */
export class SessionCaps {
  private pending = 0;

  constructor(private readonly opts: SessionCapsOptions) {}

  /** Reserves a slot for one creation; call the returned release once it finished either way. */
  async admit(runningOnAgent: number): Promise<() => void> {
    const { maxPerAgent, maxPerInstance, agentId, instanceId } = this.opts;
    if (runningOnAgent + this.pending >= maxPerAgent) {
      throw new BindingError(
        'RATE_LIMITED',
        `agent '${agentId}' already runs its maximum of ${maxPerAgent} sessions (PTYWS_MAX_SESSIONS_PER_AGENT); close a session first`,
        // agent_id: the edge tries the instance's other agents before passing this on.
        { limit: 'sessions_agent', max: maxPerAgent, agent_id: agentId },
      );
    }
    this.pending += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.pending -= 1;
    };
    try {
      const running = (await this.opts.registry.list({ instanceId, state: 'running' })).length;
      if (running + this.pending > maxPerInstance) {
        throw new BindingError(
          'RATE_LIMITED',
          `instance '${instanceId}' already runs its maximum of ${maxPerInstance} sessions (PTYWS_MAX_SESSIONS_PER_INSTANCE); close a session first`,
          { limit: 'sessions_instance', max: maxPerInstance },
        );
      }
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }
}
