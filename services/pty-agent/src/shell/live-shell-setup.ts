import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

/**
 * For sessions that run as another user (PTYWS_SESSION_USER), who cannot read the agent's state
 * dir: the integration files are written once, now, into a fresh directory of their own that
 * every user may read and none but the agent may change (directories 0755, files 0644, owned
 * by the agent). Returns the directory.
 */
export function sharedShellIntegration(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pty-ws-shell-'));
  writeShellIntegration(dir);
  const open = (d: string): void => {
    chmodSync(d, 0o755);
    for (const entry of readdirSync(d, { withFileTypes: true }))
      if (entry.isDirectory()) open(path.join(d, entry.name));
  };
  open(dir);
  written.add(dir);
  // A fresh one per agent process: gone with it.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
