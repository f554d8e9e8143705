import { statSync } from 'node:fs';
import os from 'node:os';
import {
  BindingError,
  MAX_DIMENSION,
  MIN_COLS,
  MIN_ROWS,
  resolveHostSelection,
  type SessionHostCapabilities,
} from '@pty-ws/protocol';
import type { CreateSessionRequest, SessionSpec } from '@pty-ws/ports';
import { SESSION_HOST } from '../hosts/session-host-capabilities';
import { buildSessionEnv } from './session-env';

export { SESSION_HOST };

export interface SpecDefaults {
  shell: string;
  defaultCols: number;
  defaultRows: number;
  /** Protected env names clients may set anyway (PTYWS_ALLOW_ENV_OVERRIDE). */
  allowEnvOverride?: readonly string[];
  /** Allowlist mode (PTYWS_SESSION_ENV_ALLOW): the only names a client may set. */
  envAllow?: readonly string[];
  /** The session user's HOME, USER, LOGNAME (PTYWS_SESSION_USER), in place of the service's own. */
  login?: Readonly<Record<string, string>>;
}

/** Validates a creation request against the host's capabilities and builds the process spec. */
export function buildSessionSpec(
  req: CreateSessionRequest,
  defaults: SpecDefaults,
  host: SessionHostCapabilities = SESSION_HOST,
): SessionSpec {
  const { backend, sessionClass } = resolveHostSelection(host, req.backend, req.sessionClass);
  const taskExecutor = req.taskExecutor ?? 'process';
  if (taskExecutor !== 'process' && taskExecutor !== 'live_shell') {
    throw new BindingError('INVALID_REQUEST', `task_executor must be 'process' or 'live_shell'`);
  }
  if (req.argv !== undefined && req.command !== undefined) {
    throw new BindingError('INVALID_REQUEST', 'give either argv or command, not both');
  }
  let argv: string[];
  if (req.argv !== undefined) {
    if (req.argv.length === 0 || req.argv.some((a) => typeof a !== 'string') || !req.argv[0]) {
      throw new BindingError('INVALID_REQUEST', 'argv must be a non-empty array of strings');
    }
    argv = [...req.argv];
  } else if (req.command !== undefined) {
    if (!req.command.trim()) throw new BindingError('INVALID_REQUEST', 'command must not be empty');
    argv = ['/bin/sh', '-lc', req.command];
  } else {
    argv = [defaults.shell, '-l'];
  }

  const home = defaults.login?.['HOME'] ?? process.env['HOME'] ?? os.homedir();
  // A session user's home may not exist (nobody's is /nonexistent): its sessions then start in /.
  const cwd = req.cwd && req.cwd.length > 0 ? req.cwd : defaults.login && !isDirectory(home) ? '/' : home;
  if (!isDirectory(cwd)) throw new BindingError('INVALID_REQUEST', `cwd '${cwd}' is not an existing directory`);

  const env = buildSessionEnv(req.env, defaults);

  const size = req.size ?? { cols: defaults.defaultCols, rows: defaults.defaultRows };
  if (
    !Number.isInteger(size.cols) ||
    !Number.isInteger(size.rows) ||
    size.cols < MIN_COLS ||
    size.rows < MIN_ROWS ||
    size.cols > MAX_DIMENSION ||
    size.rows > MAX_DIMENSION
  ) {
    throw new BindingError(
      'INVALID_REQUEST',
      `terminal size ${size.cols}x${size.rows} is outside ${MIN_COLS}..${MAX_DIMENSION} x ${MIN_ROWS}..${MAX_DIMENSION}`,
    );
  }
  return { argv, cwd, env, size, backend, sessionClass, taskExecutor };
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
