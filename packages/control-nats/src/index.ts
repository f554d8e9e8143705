export { NatsSessionControl, startEdgeHeartbeat, type EdgeClientOptions } from './edge-client';
export { serveSessionControl, type AgentServer, type AgentServerOptions } from './agent-server';
export { subjects, type Subjects } from './subjects';
