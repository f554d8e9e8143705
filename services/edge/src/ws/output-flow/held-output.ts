import { HELD_BYTES, HELD_BYTES_OWNER_HOLDING, entryWeight, type LogEntry } from '@pty-ws/ports';

/**
 * Entries kept back while every reader here is behind and the owner was asked to hold output
 * (PaceWatch holding): delivered once one reader keeps up again. What the owner had already sent
 * when it stopped reading the PTY would otherwise land in the sockets of readers that are paused,
 * past the hard bound, and skip them (cluster: up to 32 appends in flight). Bounded: past
 * HELD_BYTES (HELD_BYTES_OWNER_HOLDING once the owner answered that it holds) all of it goes on,
 * and readers that cannot take it are skipped forward as before.
 */
export class HeldOutput {
  private entries: LogEntry[] = [];
  private bytes = 0;
  private releasing = false;

  /** Whether anything is held: later entries queue behind it, whatever the pace. */
  get any(): boolean {
    return this.entries.length > 0;
  }

  push(entry: LogEntry): void {
    this.entries.push(entry);
    this.bytes += entryWeight(entry);
  }

  /** Entries that came before everything held (a gap filled meanwhile): they go first. */
  putFirst(entries: readonly LogEntry[]): void {
    this.entries.unshift(...entries);
    for (const e of entries) this.bytes += entryWeight(e);
  }

  /** Held past what the owner can have in flight (it is not holding, or has not said it is). */
  overBound(ownerHolds: boolean): boolean {
    return this.bytes > (ownerHolds ? HELD_BYTES_OWNER_HOLDING : HELD_BYTES);
  }

  /**
   * Passes what is held on, in arrival order, while `flowing()` says so: a reader that falls
   * behind again on the way holds the rest back again. Re-entered from `pass` (an entry passed on
   * made readers keep up), it does nothing: the outer loop goes on.
   */
  release(flowing: () => boolean, pass: (entry: LogEntry) => void): void {
    if (this.releasing) return;
    this.releasing = true;
    let i = 0;
    try {
      while (i < this.entries.length && flowing()) {
        const entry = this.entries[i++] as LogEntry;
        this.bytes -= entryWeight(entry);
        pass(entry);
      }
    } finally {
      this.entries.splice(0, i);
      this.releasing = false;
    }
  }

  /** The hub is going away: nothing it held is sent. */
  clear(): void {
    this.entries = [];
    this.bytes = 0;
  }
}
