import type {
  FrameLog,
  HistoryBackfill,
  ManagedPtyHost,
  ManagedPtyProcess,
  PtyExit,
  SessionRecord,
  SessionRegistry,
} from '@pty-ws/ports';
import type { ClosedReason } from '@pty-ws/protocol';
import { Sequencer } from '../session/sequencer';
import { loggedScreen } from './logged-screen';

export interface RecoveryDeps {
  agentId: string;
  instanceId: string;
  registry: SessionRegistry;
  log: FrameLog;
  hosts: readonly ManagedPtyHost[];
  isRunning(sessionId: string): boolean;
  /** Starts the session's runtime on a re-attached process, continuing its frame log. */
  attach(record: SessionRecord, proc: ManagedPtyProcess): Promise<{ resync(): void }>;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface RecoveryReport {
  /** Sessions whose multiplexer session was found and re-attached. */
  reattached: string[];
  /** Sessions recorded as running whose multiplexer session is gone: closed now. */
  closed: string[];
  /** Multiplexer sessions no record claims: left alone (another agent id may share the directory). */
  orphans: string[];
}

/**
 * After an agent restart: finds the multiplexer sessions on this agent's private sockets, matches
 * them to the registry's running records of this agent, and re-attaches each one. The runtime
 * continues the same frame log (next sequence): first what the multiplexer printed while no agent
 * was attached (from its history, after the log's last screen), then the client's output, and once
 * the client's repaint is in, a logged Keyframe lets every client resync its screen. Records without a multiplexer session get their
 * `Closed` (with the exit status if the program left one) so clients do not wait forever.
 */
export async function recoverManagedSessions(deps: RecoveryDeps): Promise<RecoveryReport> {
  const report: RecoveryReport = { reattached: [], closed: [], orphans: [] };
  const records = (await deps.registry.list({ instanceId: deps.instanceId, state: 'running' })).filter(
    (r) => r.agentId === deps.agentId && !deps.isRunning(r.sessionId),
  );
  for (const host of deps.hosts) {
    const live = new Set(await host.list());
    const mine = records.filter((r) => r.spec.backend === host.backend);
    const claimed = new Set(mine.map((r) => r.sessionId));
    report.orphans.push(...[...live].filter((name) => !claimed.has(name)));
    for (const record of mine) {
      const id = record.sessionId;
      if (!live.has(id)) {
        await closeRecord(deps, record, await host.exitOf(id));
        await host.discard(id);
        report.closed.push(id);
        continue;
      }
      try {
        const { proc, size, backfill } = await host.reattach(id, record.spec, await loggedEnd(deps, record));
        if (backfill) reportBackfill(deps, id, backfill);
        const runtime = await deps.attach({ ...record, pid: proc.pid, spec: { ...record.spec, size } }, proc);
        await deps.registry.update(id, { pid: proc.pid });
        await proc.settled();
        runtime.resync();
        report.reattached.push(id);
      } catch (err) {
        deps.logger.warn({ session_id: id, err: (err as Error).message }, 'could not re-attach a managed session');
        await closeRecord(deps, record, await host.exitOf(id));
        await host.discard(id);
        report.closed.push(id);
      }
    }
  }
  if (report.orphans.length > 0)
    deps.logger.warn({ sessions: report.orphans }, 'multiplexer sessions without a record');
  deps.logger.info(report, 'managed sessions recovered');
  return report;
}

/** The screen the session's log ends on; undefined (no backfill) if the log cannot be read. */
async function loggedEnd(deps: RecoveryDeps, record: SessionRecord) {
  try {
    return { logged: await loggedScreen(deps.log, record.sessionId, record.spec.size) };
  } catch (err) {
    const fields = { session_id: record.sessionId, err: (err as Error).message };
    deps.logger.warn(
      fields,
      'could not read the end of the log: output printed while no agent was attached is not appended',
    );
    return undefined;
  }
}

/**
 * What the agent could not append of the output printed while it was away is never dropped
 * silently: the log shows a notice where it is missing (see history-backfill.ts), and this warns.
 */
function reportBackfill(deps: RecoveryDeps, sessionId: string, backfill: HistoryBackfill): void {
  const fields = { session_id: sessionId, outcome: backfill.outcome, lines: backfill.lines };
  const problem = BACKFILL_PROBLEMS[backfill.outcome];
  if (problem) deps.logger.warn(fields, problem);
  else deps.logger.info(fields, 'output printed while no agent was attached: appended what the log missed');
}

const BACKFILL_PROBLEMS: Partial<Record<HistoryBackfill['outcome'], string>> = {
  truncated: "output printed while no agent was attached exceeded the multiplexer's history: some of it is lost",
  unplaced: "output printed while no agent was attached could not be placed after the log's end: it may be lost",
  ambiguous: "output printed while no agent was attached repeats the log's last screen: lines may be missing",
  unsupported: "output printed while no agent was attached could not be read from the multiplexer's history",
};

/** Appends `Closed` after the log's last entry and marks the record closed. */
async function closeRecord(deps: RecoveryDeps, record: SessionRecord, exit: PtyExit | undefined): Promise<void> {
  const bounds = await deps.log.bounds(record.sessionId);
  const sequencer = new Sequencer({
    sessionId: record.sessionId,
    log: deps.log,
    lastSeq: bounds.lastSeq,
    onFailure: (err) => deps.logger.warn({ session_id: record.sessionId, err: err.message }, 'frame log append failed'),
  });
  const reason: ClosedReason = exit ? 'normal' : 'error';
  const exitCode = exit?.exitCode ?? null;
  sequencer.event('pty.session_frame', { kind: 'Closed', exit_code: exitCode, reason });
  await sequencer.flushed();
  await deps.registry.update(record.sessionId, {
    state: 'closed',
    closedAt: Date.now(),
    exitCode,
    closedReason: reason,
  });
}
