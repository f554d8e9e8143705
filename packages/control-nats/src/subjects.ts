import { subjectToken } from '@pty-ws/ports';
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

/** The prefix is configuration, checked; ids are escaped (a hostname as agent id has dots). */
function prefixToken(value: string): string {
  if (!TOKEN.test(value)) throw new Error(`subject prefix '${value}' cannot be used in a NATS subject`);
  return value;
}

/** Agent, instance and session ids go in as single tokens (`subjectToken`), the same on edges and agents. */
export function subjects(prefix: string): Subjects {
  const p = prefix.split('.').map(prefixToken).join('.');
  return {
    agentControl: (agentId) => `${p}.agent.${subjectToken(agentId)}.ctl`,
    agentInput: (agentId, sessionId) => `${p}.agent.${subjectToken(agentId)}.input.${subjectToken(sessionId)}`,
    agentInputWildcard: (agentId) => `${p}.agent.${subjectToken(agentId)}.input.*`,
    placement: (instanceId) => `${p}.place.${subjectToken(instanceId)}`,
    placementQueue: (instanceId) => `${p}-agents-${subjectToken(instanceId)}`,
    edgeHeartbeat: () => `${p}.edges.heartbeat`,
    agentPresence: () => `${p}.agents.presence`,
    agentDiscover: () => `${p}.agents.discover`,
  };
}
