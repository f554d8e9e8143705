import { hostname } from 'node:os';
import { posix } from 'node:path';
import { ID_PATTERN } from './rules';

/**
 * Defaults that depend on the machine. Host names may be longer than an id allows or contain
 * characters it forbids, so they are folded into the id alphabet rather than failing at start.
 */
export function toIdentifier(raw: string, fallback: string): string {
  const folded = raw
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  return ID_PATTERN.test(folded) ? folded : fallback;
}

export function defaultAgentId(): string {
  return toIdentifier(hostname(), 'agent');
}

export function defaultEdgeId(): string {
  const suffix = `-${process.pid}`;
  return toIdentifier(hostname(), 'edge').slice(0, 64 - suffix.length) + suffix;
}

/** $SHELL when it is an absolute path (it is what the user logs in with), else /bin/bash. */
export function defaultShell(env: NodeJS.ProcessEnv): string {
  const shell = env['SHELL'];
  return shell !== undefined && shell.startsWith('/') ? shell : '/bin/bash';
}

/**
 * `$HOME/.local/state/pty-ws` when that path is usable (the XDG state location survives reboots
 * of /tmp, which a restarted agent needs to find its multiplexer sessions), else /tmp/pty-ws-<uid>.
 */
export function defaultStateDir(env: NodeJS.ProcessEnv): string {
  const home = env['HOME'];
  const xdg = home !== undefined && home.startsWith('/') ? posix.join(home, '.local/state/pty-ws') : undefined;
  if (xdg !== undefined && /^\/[A-Za-z0-9._/-]{0,63}$/.test(xdg)) return xdg;
  return `/tmp/pty-ws-${process.getuid?.() ?? 0}`;
}
