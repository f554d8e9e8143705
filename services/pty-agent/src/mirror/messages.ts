import type { ScreenFormat } from '@pty-ws/ports';
import type { ScreenView } from '@pty-ws/terminal-state';

/** What the agent and its terminal-mirror worker say to each other (one worker, many terminals). */
export type ToMirror =
  | { t: 'open'; id: number; cols: number; rows: number }
  | { t: 'write'; id: number; data: Uint8Array }
  | { t: 'resize'; id: number; cols: number; rows: number }
  | { t: 'snapshot'; id: number; req: number }
  | { t: 'screen'; id: number; req: number; format: ScreenFormat }
  | { t: 'close'; id: number };

export type FromMirror =
  | { t: 'snapshot'; req: number; snapshot: string; cols: number; rows: number }
  | { t: 'screen'; req: number; view: ScreenView }
  | { t: 'snapshot-failed'; req: number; message: string }
  | { t: 'parse-error'; id: number; message: string }
  /**
   * Bytes of this terminal's writes xterm has parsed since the last such report, and how many
   * malformed bytes or sequences it skipped in them (batched: a binary dump has thousands).
   */
  | { t: 'parsed'; id: number; bytes: number; malformed: number };
