/** The agent's requests to its spawner process and the spawner's answers (IPC, JSON). */

/** Start `file args` on the tty at path `tty` (the slave of a pair the agent opened). */
export interface SpawnRequest {
  type: 'spawn';
  id: number;
  tty: string;
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

export type SpawnerEvent =
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'failed'; id: number; message: string }
  /** The program ended; `signal` is a name (SIGKILL), as child_process reports it. */
  | { type: 'exit'; id: number; code: number | null; signal: string | null };

/**
 * What node-pty's forkpty sets beyond a new tty's kernel defaults (checked with `stty -a` on both):
 * sessions behave as they did when node-pty forked them.
 */
export const NODE_PTY_TERMIOS = ['hupcl', 'ixany', 'imaxbel', 'brkint', 'eol', '0xff', 'eol2', '0xff'];
