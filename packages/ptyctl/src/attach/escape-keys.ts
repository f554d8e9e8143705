/**
 * The local escape prefix of `ptyctl attach`, Ctrl-] (as in telnet): Ctrl-] d detaches, Ctrl-] r
 * repaints from a fresh Keyframe, Ctrl-] Ctrl-] sends one Ctrl-]. Any other key after the prefix
 * is sent as typed, prefix included, so nothing the user types is silently eaten.
 */
export const ESCAPE_PREFIX = 0x1d;
const DETACH = 0x64; // 'd'
const RESYNC = 0x72; // 'r'

export interface EscapeActions {
  input(bytes: Uint8Array): void;
  detach(): void;
  resync(): void;
}

/** Byte-wise state machine: the prefix and its key may arrive in separate reads. */
export class EscapeKeys {
  private pending = false;
  private stopped = false;

  constructor(private readonly actions: EscapeActions) {}

  feed(chunk: Uint8Array): void {
    if (this.stopped) return;
    const out: number[] = [];
    const flush = (): void => {
      if (out.length > 0) this.actions.input(Uint8Array.from(out.splice(0)));
    };
    for (const b of chunk) {
      if (!this.pending) {
        if (b === ESCAPE_PREFIX) this.pending = true;
        else out.push(b);
        continue;
      }
      this.pending = false;
      if (b === DETACH) {
        flush();
        // Keys typed after the detach belong to the local shell, not the session.
        this.stopped = true;
        return this.actions.detach();
      }
      if (b === RESYNC) {
        flush();
        this.actions.resync();
      } else if (b === ESCAPE_PREFIX) {
        out.push(ESCAPE_PREFIX);
      } else {
        out.push(ESCAPE_PREFIX, b);
      }
    }
    flush();
  }
}
