/** How long one outage keeps a dependency reported down when nothing answers since. */
const OUTAGE_HOLD_MS = 5000;

export interface HealthLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * Whether one dependency (PostgreSQL, NATS) served its last calls: down from an outage until a
 * later call or probe succeeds, or until OUTAGE_HOLD_MS passed without another outage (a caller
 * that gave up after its last failure must not hold /readyz at 503 forever). Changes are logged
 * once each way, as one short JSON line.
 */
export class DependencyHealth {
  /** When the latest outage no answer has followed yet was seen; undefined: answered since. */
  private outageAt: number | undefined;
  private reportedDown = false;

  constructor(
    readonly dependency: string,
    private readonly logger?: HealthLogger,
    private readonly now: () => number = Date.now,
  ) {}

  ok(): void {
    this.outageAt = undefined;
    if (this.reportedDown) {
      this.reportedDown = false;
      this.logger?.info({ dependency: this.dependency }, `${this.dependency} is answering again`);
    }
  }

  outage(reason: string): void {
    this.outageAt = this.now();
    if (!this.reportedDown) {
      this.reportedDown = true;
      this.logger?.warn({ dependency: this.dependency, reason }, `${this.dependency} is unavailable`);
    }
  }

  get up(): boolean {
    return this.outageAt === undefined || this.now() - this.outageAt >= OUTAGE_HOLD_MS;
  }
}

/** A short, single-line account of an error for a log field (never the object itself). */
export function errorSummary(err: unknown): string {
  const { name, message, code } = (typeof err === 'object' && err !== null ? err : {}) as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
  };
  const text =
    typeof message === 'string'
      ? `${typeof name === 'string' ? name : 'Error'}: ${message}${typeof code === 'string' || typeof code === 'number' ? ` (${code})` : ''}`
      : String(err);
  return text.replace(/\s+/g, ' ').slice(0, 300);
}
