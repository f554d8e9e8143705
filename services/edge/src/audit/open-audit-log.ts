import { join } from 'node:path';
import type { Config } from '@pty-ws/config';
import { JsonLinesAuditLog } from '@pty-ws/adapters-memory';
import type { AuditMetrics } from '@pty-ws/telemetry';
import { NO_AUDIT, type AuditEvent, type AuditLog, type AuditQuery, type StoredAuditEvent } from '@pty-ws/ports';

interface ProblemLogger {
  warn(obj: object, msg: string): void;
}

/**
 * The JSON-lines sink PTYWS_AUDIT_LOG asks for. Unset means: a file under the state directory in
 * single-node mode (queryable through GET /api/v1/audit, kept across restarts), and none in cluster
 * mode, where the Postgres table is the trail.
 */
export async function openJsonLinesAudit(
  config: Config,
  mode: 'single-node' | 'cluster',
  logger: ProblemLogger,
  metrics?: AuditProblemMetrics,
): Promise<AuditLog | undefined> {
  const target = config.auditLog ?? (mode === 'single-node' ? join(config.stateDir, 'audit.jsonl') : undefined);
  if (target === undefined || target === 'off') return undefined;
  const onProblem = problemReporter(logger, target, metrics);
  if (target === 'stdout') return JsonLinesAuditLog.open({ stream: process.stdout, name: 'stdout' }, { onProblem });
  if (target === 'stderr') return JsonLinesAuditLog.open({ stream: process.stderr, name: 'stderr' }, { onProblem });
  try {
    return await JsonLinesAuditLog.open({ file: target }, { onProblem });
  } catch (err) {
    throw new Error(`PTYWS_AUDIT_LOG=${target} cannot be opened for appending: ${(err as Error).message}`);
  }
}

type AuditProblemMetrics = Pick<AuditMetrics, 'auditDropped' | 'auditWriteFailed'>;

/** Logs and counts a sink's write failures and drops: the trail must not fail silently, nor stall the service. */
export function problemReporter(
  logger: ProblemLogger,
  where: string,
  metrics?: AuditProblemMetrics,
): (p: { error?: Error; dropped: number }) => void {
  return (p) => {
    if (p.dropped > 0) metrics?.auditDropped(p.dropped);
    if (p.error) metrics?.auditWriteFailed();
    logger.warn(
      { audit_sink: where, err: p.error?.message, dropped: p.dropped },
      p.error ? 'audit log write failed; retrying' : 'audit log queue full; oldest events dropped',
    );
  };
}

/** Every event to every sink; queries answered by the first (the queryable one). */
export class TeeAuditLog implements AuditLog {
  private readonly sinks: readonly AuditLog[];

  constructor(...sinks: Array<AuditLog | undefined>) {
    this.sinks = sinks.filter((s): s is AuditLog => s !== undefined);
  }

  record(event: AuditEvent): void {
    for (const s of this.sinks) s.record(event);
  }

  async flush(): Promise<void> {
    await Promise.all(this.sinks.map((s) => s.flush()));
  }

  query(q: AuditQuery): Promise<StoredAuditEvent[]> {
    return (this.sinks[0] ?? NO_AUDIT).query(q);
  }

  async close(): Promise<void> {
    await Promise.all(this.sinks.map((s) => s.close()));
  }
}
