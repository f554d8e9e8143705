import { closeSync, fchownSync } from 'node:fs';
import { systemClock, type Clock, type PtyHost, type PtyProcess, type SessionSpec } from '@pty-ws/ports';
import { UNWATCHED, type PathWatch } from './path-watch';
import { sessionCommand } from './session-command';
import type { SessionIdentity } from './session-identity';
import { loadNativePty, type NativePty } from './node-pty-private';
import { PtySpawner } from './spawner/pty-spawner';
import { SpawnedPtyProcess } from './spawner/spawned-pty';
import { streamRelayBinary } from './spawner/stream-relay';

export interface SpawnerPtyHostOptions {
  /** Read streaming sessions through the stream relay when it is built (default true). */
  streamRelay?: boolean;
  /** Who the programs run as (PTYWS_SESSION_USER); undefined: the agent's own user. */
  identity?: SessionIdentity;
  /** Told which path reads each session and when a relay fails (default: nobody). */
  watch?: PathWatch;
  clock?: Clock;
}

/**
 * The `native` backend without forking the agent: the agent opens the pty pair and its spawner
 * process (spawner/spawner-main.ts) starts the program on it. Same PtyProcess as NodePtyHost's.
 */
export class SpawnerPtyHost implements PtyHost {
  constructor(
    private readonly spawner: PtySpawner,
    private readonly native: NativePty,
    /** The stream relay's binary: undefined when it is off or not built. */
    readonly relayBinary?: string,
    /** Who the programs run as (PTYWS_SESSION_USER); undefined: the agent's own user. */
    private readonly identity?: SessionIdentity,
    private readonly watch: PathWatch = UNWATCHED,
    private readonly clock: Clock = systemClock,
  ) {}

  /** This host when the spawner can run here (its script is built, setsid and stty exist), else undefined. */
  static find(opts: SpawnerPtyHostOptions = {}): SpawnerPtyHost | undefined {
    const found = SpawnerPtyHost.probe(opts);
    return 'host' in found ? found.host : undefined;
  }

  /** This host, or why the spawner cannot run here (for the agent's warning before it falls back to node-pty). */
  static probe(opts: SpawnerPtyHostOptions = {}): { host: SpawnerPtyHost } | { problem: string } {
    const clock = opts.clock ?? systemClock;
    const spawner = PtySpawner.locate();
    const native = loadNativePty();
    if (!('setsid' in spawner)) return { problem: `the pty spawner cannot run: ${spawner.missing}` };
    if (!('native' in native)) return { problem: `the pty spawner cannot open ptys: ${native.problem}` };
    const relay = opts.streamRelay === false ? undefined : streamRelayBinary();
    const host = new SpawnerPtyHost(
      new PtySpawner(spawner.script, spawner.setsid, spawner.stty, clock),
      native.native,
      relay,
      opts.identity,
      opts.watch,
      clock,
    );
    return { host };
  }

  async spawn(_sessionId: string, spec: SessionSpec): Promise<PtyProcess> {
    const [argv0, ...argv] = spec.argv;
    if (!argv0) throw new Error('argv is empty');
    const { file, args } = sessionCommand(this.identity, argv0, argv);
    const pair = this.native.open(spec.size.cols, spec.size.rows);
    try {
      // The session user owns its terminal, as after a login (its group stays the tty group).
      if (this.identity) fchownSync(pair.slave, this.identity.uid, -1);
      const program = await this.spawner.spawn({
        tty: pair.pty,
        file,
        args,
        // As node-pty sets them for a program it forks.
        env: { ...spec.env, PWD: spec.cwd, TERM: spec.env['TERM'] ?? 'xterm-256color' },
        cwd: spec.cwd,
      });
      return new SpawnedPtyProcess(pair, program, this.native, this.relayBinary, this.clock, this.watch);
    } catch (err) {
      closeQuietly(pair.master);
      closeQuietly(pair.slave);
      throw err;
    }
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
