import type { PtyProcess, SessionSpec } from '@pty-ws/ports';
import { LiveShellExecutor, type LiveShellOptions } from '../tasks/live-shell-executor';
import { withShellIntegration, writeShellIntegration } from './shell-integration';
import type { TaskExecutor } from '../tasks/task-executor';

/** The agent's live-shell settings: limits plus where the integration files live. */
export interface LiveShellConfig extends LiveShellOptions {
  integrationDir: string;
}

const written = new Set<string>();

/**
 * The spec a session is started with: for `task_executor: live_shell` on a shell the agent knows,
 * the integration variables are added (the stored record keeps the client's own spec).
 */
export function launchSpec(spec: SessionSpec, config: LiveShellConfig | undefined): SessionSpec {
  if (spec.taskExecutor !== 'live_shell' || !config) return spec;
  if (!written.has(config.integrationDir)) {
    writeShellIntegration(config.integrationDir);
    written.add(config.integrationDir);
  }
  return withShellIntegration(spec, config.integrationDir).spec;
}

/** The session's own task executor, or undefined to use the service's process executor. */
export function liveShellExecutor(
  spec: SessionSpec,
  proc: PtyProcess,
  config: LiveShellConfig | undefined,
  fallback: TaskExecutor,
): TaskExecutor | undefined {
  if (spec.taskExecutor !== 'live_shell' || !config) return undefined;
  // Same decision as launchSpec made when the session started (also after an agent restart).
  const kind = withShellIntegration(spec, config.integrationDir).kind;
  return new LiveShellExecutor(proc, kind, fallback, { ...config, multiplexed: spec.backend !== 'native' });
}
