import type { AgentMetrics, HelperFailureSite, PtyReadPath } from '@pty-ws/telemetry';

/**
 * What the session hosts tell about their alternative paths: who reads each session's pty
 * (`ptyws_pty_read_path`), and a helper that failed or cannot run here, the agent going on without
 * it (`ptyws_helper_failures_total` and a warning, so a slower path is never taken in silence).
 */
export interface PathWatch {
  /** A session's pty started (+1) or stopped (-1) being read by `path`. */
  reading(path: PtyReadPath, delta: 1 | -1): void;
  /** `message` says what failed and what the agent does instead. */
  failed(where: HelperFailureSite, message: string, fields?: Record<string, unknown>): void;
}

/** For hosts made without an agent around them (tests, tools): nothing is recorded. */
export const UNWATCHED: PathWatch = { reading: () => undefined, failed: () => undefined };

/** The agent's watch: the metrics (when it has them) and a warning in its log for every failure. */
export function pathWatch(
  metrics: AgentMetrics | undefined,
  warn: (fields: Record<string, unknown>, message: string) => void,
): PathWatch {
  return {
    reading: (path, delta) => metrics?.ptyReadPath(path, delta),
    failed: (where, message, fields = {}) => {
      metrics?.helperFailure(where);
      warn({ ...fields, helper: where }, message);
    },
  };
}
