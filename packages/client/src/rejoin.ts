import type { JoinOptions } from './options';

/**
 * What the client joined with, kept so a reconnect can join again: the request of the last
 * successful join(), and a size resize() could not send while no connection was joined.
 */
export class JoinMemory {
  /** What join() asked for; undefined while not joined. */
  private request: JoinOptions | undefined;
  /** A size resize() could not send (no joined connection): the rejoin after a reconnect carries it. */
  private unsentSize: { cols: number; rows: number } | undefined;

  get joined(): boolean {
    return this.request !== undefined;
  }

  remember(request: JoinOptions): void {
    this.request = request;
  }

  forget(): void {
    this.request = undefined;
  }

  /** resize() could not send: remembered for the rejoin (only while joined). */
  resizeUnsent(cols: number, rows: number): void {
    if (this.request) this.unsentSize = { cols, rows };
  }

  /** A size reached the server (sent, or carried by a rejoin). */
  sizeSent(): void {
    this.unsentSize = undefined;
  }

  /**
   * The join sent after a reconnect, or undefined when nothing was joined: the role held before
   * (`heldRole`), and no geometry from the first join — a join's size applies when its client is
   * the only controller, and the first join's size may long be out of date (the session was
   * resized since, by us or others). Only a size resize() could not send while away goes with it.
   */
  rejoin(heldRole: JoinOptions['role']): JoinOptions | undefined {
    if (!this.request) return undefined;
    const { cols: _cols, rows: _rows, terminal_size: _size, ...rest } = this.request;
    const role = heldRole ?? this.request.role;
    const size = this.unsentSize;
    return { ...rest, ...(role ? { role } : {}), ...(size ? { cols: size.cols, rows: size.rows } : {}) };
  }
}
