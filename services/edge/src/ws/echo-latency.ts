import { ECHO_WINDOW_MS, type Clock } from '@pty-ws/ports';
import type { EdgeMetrics } from '@pty-ws/telemetry';

/**
 * The echo latency metric of one session on this edge: from the oldest input not yet followed
 * by Output to the next Output sent. An input older than ECHO_WINDOW_MS had no echo.
 */
export class EchoLatency {
  /** Monotonic time of the oldest input not yet followed by Output (0: none). */
  private inputAt = 0;

  constructor(
    private readonly clock: Clock,
    private readonly metrics: EdgeMetrics,
  ) {}

  /** An input frame for the session arrived: the next Output sent is its echo. */
  input(): void {
    if (this.inputAt === 0) this.inputAt = this.clock.monotonic() || Number.MIN_VALUE;
  }

  /** An Output frame was sent to the session's readers. */
  output(): void {
    if (this.inputAt === 0) return;
    const ms = this.clock.monotonic() - this.inputAt;
    this.inputAt = 0;
    if (ms <= ECHO_WINDOW_MS) this.metrics.echoLatency(ms / 1000);
  }
}
