import { statSync } from 'node:fs';
import os from 'node:os';
import { BindingError, MAX_DIMENSION, MIN_COLS, MIN_ROWS, type SessionHostCapabilities } from '@pty-ws/protocol';
import type { CreateSessionRequest, SessionSpec } from '@pty-ws/ports';

/** What this agent's PTY bridge can host (binding §5.1). Managed multiplexers are not built yet. */
export const SESSION_HOST: SessionHostCapabilities = {
  supported_backends: ['native'],
  default_backend: 'native',
  supported_classes: ['direct'],
  default_class: 'direct',
  observe_supported: true,
  drive_supported: true,
  reattach_supported: true,
};

/** Variables passed through from the agent: enough for a usable shell, never the agent's secrets. */
const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'TZ', 'SHELL'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variables a client may not set: they change what code the dynamic loader runs. */
const FORBIDDEN_ENV = new Set(['LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'NODE_OPTIONS']);

function notImplemented(kind: 'session_backend' | 'session_class', value: string, why: string): BindingError {
  return new BindingError('INVALID_REQUEST', `${kind}.not_implemented: ${why}`, {
    reason: `${kind}.not_implemented`,
    [kind]: value,
  });
}

export interface SpecDefaults {
  shell: string;
  defaultCols: number;
  defaultRows: number;
}

/** Validates a creation request against the host's capabilities and builds the process spec. */
export function buildSessionSpec(req: CreateSessionRequest, defaults: SpecDefaults): SessionSpec {
  const backend = req.backend ?? SESSION_HOST.default_backend;
  const sessionClass = req.sessionClass ?? SESSION_HOST.default_class;
  if (!SESSION_HOST.supported_backends.includes(backend)) {
    throw notImplemented(
      'session_backend',
      backend,
      `backend '${backend}' is not available on this agent (supported: ${SESSION_HOST.supported_backends.join(', ')})`,
    );
  }
  if (!SESSION_HOST.supported_classes.includes(sessionClass) || (backend === 'native' && sessionClass !== 'direct')) {
    throw notImplemented('session_class', sessionClass, `backend '${backend}' supports class 'direct' only`);
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

  const cwd = req.cwd && req.cwd.length > 0 ? req.cwd : (process.env['HOME'] ?? os.homedir());
  let isDir = false;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new BindingError('INVALID_REQUEST', `cwd '${cwd}' is not an existing directory`);

  const env: Record<string, string> = { TERM: 'xterm-256color', COLORTERM: 'truecolor' };
  for (const name of INHERITED_ENV) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  for (const [name, value] of Object.entries(req.env ?? {})) {
    if (!ENV_NAME.test(name))
      throw new BindingError('INVALID_REQUEST', `env name '${name}' is not a valid variable name`);
    if (FORBIDDEN_ENV.has(name)) throw new BindingError('INVALID_REQUEST', `env '${name}' may not be set by a client`);
    if (typeof value !== 'string') throw new BindingError('INVALID_REQUEST', `env '${name}' must be a string`);
    env[name] = value;
  }

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
  return { argv, cwd, env, size, backend, sessionClass };
}
