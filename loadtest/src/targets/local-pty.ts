/** node-pty in this process, set up like the service's NodePtyHost (raw bytes, same size, small env). */
import * as pty from 'node-pty';
import type { ByteChannel } from '../channel';
import { COLS, ROWS } from '../programs';

export interface LocalPty extends ByteChannel {
  readonly proc: pty.IPty;
  kill(): void;
}

export function ptyEnv(): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: process.env['HOME'] ?? '/tmp',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
  };
}

export function spawnLocal(argv: string[]): LocalPty {
  const [file, ...args] = argv;
  if (!file) throw new Error('empty argv');
  const proc = pty.spawn(file, args, {
    name: 'xterm-256color',
    cols: COLS,
    rows: ROWS,
    cwd: process.env['HOME'] ?? '/tmp',
    env: ptyEnv(),
    // Buffers of raw bytes, as the service reads them: no UTF-8 decoding on the hot path.
    encoding: null,
  });
  let listener: (chunk: Buffer) => void = () => {};
  proc.onData((d) => listener(d as unknown as Buffer));
  return {
    proc,
    write: (data) => proc.write(data),
    setListener: (l) => (listener = l),
    kill: () => {
      try {
        proc.kill('SIGKILL');
      } catch {
        // Already exited.
      }
    },
  };
}
