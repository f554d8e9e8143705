import { closeSync, fchownSync } from 'node:fs';
import type { PtyHost, PtyProcess, SessionSpec } from '@pty-ws/ports';
import { sessionCommand } from './session-command';
import type { SessionIdentity } from './session-identity';
import { nativePty, type NativePty } from './spawner/native-pty';
import { PtySpawner } from './spawner/pty-spawner';
import { SpawnedPtyProcess } from './spawner/spawned-pty';
import { streamRelayBinary } from './spawner/stream-relay';

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
  ) {}

  /**
   * This host when the spawner can run here (its script is built, setsid and stty exist), else
   * undefined. `streamRelay`: read streaming sessions through the stream relay when it is built.
   */
  static find(streamRelay = true, identity?: SessionIdentity): SpawnerPtyHost | undefined {
    const spawner = PtySpawner.find();
    const native = nativePty();
    const relay = streamRelay ? streamRelayBinary() : undefined;
    return spawner && native ? new SpawnerPtyHost(spawner, native, relay, identity) : undefined;
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
      return new SpawnedPtyProcess(pair, program, this.native, this.relayBinary);
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
