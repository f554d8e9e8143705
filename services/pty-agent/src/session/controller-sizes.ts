import type { TerminalSize } from '@pty-ws/protocol';

interface Seen {
  /** The size this connection last asked for (join or Resize); absent when it never gave one. */
  size?: TerminalSize;
  /** Order of its last input or resize (a counter, so two in the same millisecond still order). */
  active: number;
}

/**
 * The size rule of a session with several controllers: the session's size follows the controller
 * that typed (or resized) most recently; when the controller that set the size goes, the size goes
 * back to the remaining controller active most recently. Sizes are remembered for every member,
 * but only a controller's count: the runtime asks only about controllers.
 */
export class ControllerSizes {
  private readonly seen = new Map<string, Seen>();
  private tick = 0;
  /** The connection whose size the session has now; undefined when it came from the spec. */
  private setBy: string | undefined;

  /** A member joined, with the terminal size it gave (if any). */
  joined(clientId: string, size: TerminalSize | undefined): void {
    this.seen.set(clientId, { ...(size ? { size: { ...size } } : {}), active: ++this.tick });
  }

  /** A controller typed: the size the session should take first, when it differs from `current`. */
  typed(clientId: string, current: TerminalSize): TerminalSize | undefined {
    const s = this.seen.get(clientId);
    if (!s) return undefined;
    s.active = ++this.tick;
    if (!s.size || sameSize(s.size, current)) return undefined;
    return s.size;
  }

  /** A controller asked for `size` (applied at once by the runtime). */
  resized(clientId: string, size: TerminalSize): void {
    this.seen.set(clientId, { size: { ...size }, active: ++this.tick });
  }

  /** The session now has the size `clientId` asked for. */
  applied(clientId: string): void {
    this.setBy = clientId;
  }

  /** A member left: forgets it. */
  left(clientId: string): void {
    this.seen.delete(clientId);
  }

  /**
   * A controller stopped being one (left, released control, lost its edge). When it set the
   * current size: the remaining controller active most recently and the size to go back to, if
   * it has one that differs from `current`.
   */
  controllerGone(
    clientId: string,
    remaining: readonly string[],
    current: TerminalSize,
  ): { clientId: string; size: TerminalSize } | undefined {
    if (this.setBy !== clientId) return undefined;
    this.setBy = undefined;
    let next: { clientId: string; seen: Seen } | undefined;
    for (const id of remaining) {
      const s = this.seen.get(id);
      if (s && (!next || s.active > next.seen.active)) next = { clientId: id, seen: s };
    }
    if (!next?.seen.size) return undefined;
    this.setBy = next.clientId;
    return sameSize(next.seen.size, current) ? undefined : { clientId: next.clientId, size: next.seen.size };
  }
}

function sameSize(a: TerminalSize, b: TerminalSize): boolean {
  return a.cols === b.cols && a.rows === b.rows;
}
