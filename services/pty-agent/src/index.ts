export { SessionManager, type AgentDeps } from './session-manager';
export { SessionRuntime, PtyFailure } from './session-runtime';
export { NodePtyHost } from './node-pty-host';
export { TaskService } from './task-service';
export { ShellTaskExecutor, type TaskExecutor } from './task-executor';
export { SESSION_HOST, buildSessionSpec } from './session-spec';
