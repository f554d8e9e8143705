/**
 * NATS subjects of the control plane. `prefix` isolates deployments (and test runs) that share
 * one NATS server.
 *
 *   <prefix>.agent.<agentId>.ctl              request/reply: SessionControl calls for one agent
 *   <prefix>.agent.<agentId>.input.<session>  publish: raw PTY input bytes (arrival order kept)
 *   <prefix>.place.<instanceId>               request/reply, queue group: "create a session anywhere"
 *   <prefix>.edges.heartbeat                  publish: edge liveness, every few seconds
 *   <prefix>.agents.presence                  publish: an agent's instance and session-host capabilities
 *   <prefix>.agents.discover                  publish: "agents, announce yourselves now" (an edge starting)
 */
export interface Subjects {
  agentControl(agentId: string): string;
  agentInput(agentId: string, sessionId: string): string;
  agentInputWildcard(agentId: string): string;
  placement(instanceId: string): string;
  placementQueue(instanceId: string): string;
  edgeHeartbeat(): string;
  agentPresence(): string;
  agentDiscover(): string;
}

const TOKEN = /^[A-Za-z0-9_-]+$/;

/** Subject tokens may not contain dots, spaces or wildcards: ids are checked, never escaped. */
function token(kind: string, value: string): string {
  if (!TOKEN.test(value)) throw new Error(`${kind} '${value}' cannot be used in a NATS subject`);
  return value;
}

export function subjects(prefix: string): Subjects {
  const p = prefix
    .split('.')
    .map((t) => token('subject prefix', t))
    .join('.');
  return {
    agentControl: (agentId) => `${p}.agent.${token('agent id', agentId)}.ctl`,
    agentInput: (agentId, sessionId) =>
      `${p}.agent.${token('agent id', agentId)}.input.${token('session id', sessionId)}`,
    agentInputWildcard: (agentId) => `${p}.agent.${token('agent id', agentId)}.input.*`,
    placement: (instanceId) => `${p}.place.${token('instance id', instanceId)}`,
    placementQueue: (instanceId) => `${p}-agents-${token('instance id', instanceId)}`,
    edgeHeartbeat: () => `${p}.edges.heartbeat`,
    agentPresence: () => `${p}.agents.presence`,
    agentDiscover: () => `${p}.agents.discover`,
  };
}
