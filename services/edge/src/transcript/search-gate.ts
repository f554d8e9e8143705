/**
 * Admission of transcript scans (one gate for searches, another for asciicast exports): one at a
 * time per principal and at most `overall` at once, so neither one token nor many can fill the
 * edge with scans. A scan that finds no place is refused at once (429 with Retry-After), not
 * queued: a queue would hold requests, and their connections, for as long as the scans ahead of
 * them run.
 */
export class SearchGate {
  private readonly running = new Set<string>();

  constructor(private readonly overall: number) {}

  /** A release function when `principalId` may search now, else undefined. */
  tryEnter(principalId: string): (() => void) | undefined {
    if (this.running.has(principalId) || this.running.size >= this.overall) return undefined;
    this.running.add(principalId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running.delete(principalId);
    };
  }
}
