export { SessionManager, type AgentDeps } from './session/session-manager';
export { SessionRuntime } from './session/session-runtime';
/** Kept for importers of the agent package; the class lives in ports (edge and agent share it). */
export { PtyFailure } from '@pty-ws/ports';
export { NodePtyHost } from './hosts/node-pty-host';
export { TaskService } from './tasks/task-service';
export { ShellTaskExecutor, type TaskExecutor } from './tasks/task-executor';
export { SESSION_HOST, buildSessionSpec } from './session/session-spec';
export { SessionHosts, type SessionHostsOptions } from './hosts/session-hosts';
export { sessionHostCapabilities, detectMultiplexers, type ManagedBackend } from './hosts/session-host-capabilities';
export { LiveShellExecutor, type LiveShellOptions } from './tasks/live-shell-executor';
export type { LiveShellConfig } from './shell/live-shell-setup';
export type { RecoveryReport } from './hosts/managed-recovery';
export { PROTECTED_ENV, isProtectedEnv } from './session/session-env';
export { createSessionManager, type AgentStores, type CreatedAgent } from './create-agent';
export { closeOrphanedSessions } from './session/orphans';
export { tracedControl } from './session/traced-control';
export { agentPaths, type AgentPaths } from './agent-paths';
export { findExecutable } from './hosts/executables';
