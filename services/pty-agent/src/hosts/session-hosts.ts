import type { ManagedPtyHost, PtyHost, PtyProcess, SessionSpec } from '@pty-ws/ports';
import type { SessionHostCapabilities } from '@pty-ws/protocol';
import { agentPaths, type AgentPaths } from '../agent-paths';
import { NodePtyHost } from './node-pty-host';
import { UNWATCHED, type PathWatch } from './path-watch';
import type { SessionIdentity } from './session-identity';
import { SpawnerPtyHost } from './spawner-pty-host';
import { createScreenHost } from './screen-host';
import { MULTIPLEXERS, sessionHostCapabilities, type ManagedBackend } from './session-host-capabilities';
import { createTmuxHost } from './tmux-host';

export interface SessionHostsOptions {
  /** PTYWS_STATE_DIR */
  stateDir: string;
  agentId: string;
  /** Installed multiplexer programs; default: what was found on PATH at agent start. */
  multiplexers?: Partial<Record<ManagedBackend, string>>;
  /** PTYWS_STREAM_RELAY: read streaming sessions through the stream relay (default true). */
  streamRelay?: boolean;
  /** PTYWS_SESSION_USER, resolved: who sessions' programs run as; undefined: the agent's own user. */
  identity?: SessionIdentity;
  /** Rewrites a session's argv so its programs start under the configured limits (session-limits.ts). */
  limitArgv?: (argv: readonly string[]) => string[];
  /** Told which path reads each session's pty, and when a helper fails or cannot run (default: nobody). */
  watch?: PathWatch;
}

/**
 * Every backend this agent hosts behind one PtyHost: native ptys, plus tmux and screen when
 * installed, each on sockets private to this agent id under the state directory.
 */
export class SessionHosts implements PtyHost {
  /**
   * Native sessions, and the multiplexers' clients, are started by the agent's spawner process, so
   * the agent never forks itself (spawner/spawner-main.ts); where the spawner cannot run (no
   * `setsid`), node-pty forks the agent.
   */
  readonly native: PtyHost;
  readonly managed: readonly ManagedPtyHost[];
  readonly capabilities: SessionHostCapabilities;
  readonly paths: AgentPaths;
  private readonly limitArgv: (argv: readonly string[]) => string[];

  constructor(opts: SessionHostsOptions) {
    this.limitArgv = opts.limitArgv ?? ((argv) => [...argv]);
    const watch = opts.watch ?? UNWATCHED;
    const found = SpawnerPtyHost.probe({
      streamRelay: opts.streamRelay ?? true,
      watch,
      ...(opts.identity ? { identity: opts.identity } : {}),
    });
    if ('host' in found) this.native = found.host;
    else {
      // node-pty would start programs with the agent's supplementary groups: no session user without the spawner.
      if (opts.identity) throw new Error(`PTYWS_SESSION_USER needs the pty spawner, and ${found.problem}`);
      watch.failed('pty_spawner', `${found.problem}: node-pty forks the agent for every session instead`);
      this.native = new NodePtyHost(watch);
    }
    this.paths = agentPaths(opts.stateDir, opts.agentId);
    // The multiplexers' servers would run as the session user on sockets in the agent's private
    // state dir, which that user must not read: with a session user only native sessions are hosted.
    const programs = opts.identity ? {} : (opts.multiplexers ?? MULTIPLEXERS);
    const managed: ManagedPtyHost[] = [];
    if (programs.tmux) managed.push(createTmuxHost(programs.tmux, this.paths, this.native));
    if (programs.screen) managed.push(createScreenHost(programs.screen, this.paths, this.native));
    this.managed = managed;
    this.capabilities = sessionHostCapabilities(managed.map((h) => h.backend as ManagedBackend));
  }

  spawn(sessionId: string, requested: SessionSpec): PtyProcess | Promise<PtyProcess> {
    const spec = { ...requested, argv: this.limitArgv(requested.argv) };
    if (spec.backend === 'native') return this.native.spawn(sessionId, spec);
    const host = this.managed.find((h) => h.backend === spec.backend);
    if (!host) throw new Error(`backend '${spec.backend}' is not available on this agent`);
    return host.spawn(sessionId, spec);
  }
}
