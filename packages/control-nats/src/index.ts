export {
  NatsSessionControl,
  startEdgeHeartbeat,
  type EdgeClientOptions,
  type EdgeHeartbeatOptions,
} from './edge-client';
export { serveSessionControl, type AgentServer, type AgentServerOptions } from './agent-server';
export { startAgentPresence, AGENT_PRESENCE_INTERVAL_MS, type AgentPresenceOptions } from './agent-presence';
export { AgentDirectory, type AgentDirectoryOptions } from './agent-directory';
export { mergeSessionHosts, parsePresence, type AgentPresence } from './presence';
export { subjects, type Subjects } from './subjects';
