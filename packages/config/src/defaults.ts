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

/** The HTTP port's default, kept in one place for the gRPC default derived from it. */
export const DEFAULT_HTTP_PORT = 8080;
/** How far above PTYWS_PORT the gRPC server listens by default. */
export const GRPC_PORT_OFFSET = 2;

/**
 * PTYWS_PORT + 2 rather than a fixed port: a second edge on the same host (PTYWS_PORT=8081, the
 * README's cluster quick start) would otherwise fail on the first edge's gRPC port. +2 keeps
 * 8082 for the default 8080 and clears both ports of an adjacent pair (8080 → 8082, 8081 → 8083).
 * Off while PTYWS_PORT=0 (free-port test runs: parallel servers must not meet on a fixed port);
 * below PTYWS_PORT near the top of the range. An invalid PTYWS_PORT is reported by its own rule.
 */
export function defaultGrpcPort(env: NodeJS.ProcessEnv): number {
  const raw = (env['PTYWS_PORT'] ?? '').trim();
  const port = raw === '' ? DEFAULT_HTTP_PORT : /^\d+$/.test(raw) ? Number(raw) : DEFAULT_HTTP_PORT;
  if (port === 0) return 0;
  return port + GRPC_PORT_OFFSET <= 65_535 ? port + GRPC_PORT_OFFSET : port - GRPC_PORT_OFFSET;
}

export const DEFAULT_AGENT_METRICS_PORT = 9464;
/**
 * How many ports above PTYWS_AGENT_METRICS_PORT's default an agent tries when the default is
 * taken and the variable is unset: a second agent on one host then starts (on 9465) instead of
 * failing, while a port that was chosen is used or refused as is.
 */
export const AGENT_METRICS_SPARE_PORTS = 15;
