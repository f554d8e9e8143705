/**
 * Admission of waits: at most `perPrincipal` open at once for one principal and `overall` on the
 * edge. A wait holds a connection and a log subscription for up to its timeout, so a token could
 * otherwise pile them up. Refused at once (429), never queued.
 */
export class WaitGate {
  private readonly open = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly perPrincipal: number,
    private readonly overall: number,
  ) {}

  /** A release function when `principalId` may start a wait now, else undefined. */
  tryEnter(principalId: string): (() => void) | undefined {
    const mine = this.open.get(principalId) ?? 0;
    if (mine >= this.perPrincipal || this.total >= this.overall) return undefined;
    this.open.set(principalId, mine + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.open.get(principalId) ?? 1) - 1;
      if (left === 0) this.open.delete(principalId);
      else this.open.set(principalId, left);
    };
  }
}
