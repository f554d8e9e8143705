/**
 * Bytes of request bodies the process buffers at once, across every request on every edge in it.
 * A body is read into memory before it is parsed; without a shared ceiling, many slow or
 * half-sent bodies (each within its own limit) add up to any amount of memory. Past the ceiling a
 * body is refused (429 RATE_LIMITED, connection closed) instead of buffered.
 */
export const BODY_BUDGET_BYTES = 64 * 1024 * 1024;

export class BodyBudget {
  private used = 0;

  constructor(private readonly limit: number = BODY_BUDGET_BYTES) {}

  /** Takes `bytes` from the budget; false (nothing taken) when it would exceed the ceiling. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  get inUse(): number {
    return this.used;
  }
}

/** The process's budget (see above: memory is per process, whatever the number of edges). */
export const PROCESS_BODY_BUDGET = new BodyBudget();
