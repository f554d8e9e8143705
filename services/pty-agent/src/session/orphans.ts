import { newId } from '@pty-ws/protocol';
import type { FrameLog, SessionRegistry } from '@pty-ws/ports';

/**
 * After an agent restart, its native sessions' processes are gone (they died with the agent).
 * Each such session gets its `Closed` frame — continuing its log at the next sequence, so
 * clients reconnecting with replay_from learn what happened — and is marked closed.
 * Returns the ids it closed. Managed (multiplexer) sessions survive restarts and are left alone.
 */
export async function closeOrphanedSessions(
  agentId: string,
  instanceId: string,
  registry: SessionRegistry,
  log: FrameLog,
): Promise<string[]> {
  const closed: string[] = [];
  for (const rec of await registry.list({ instanceId, state: 'running' })) {
    if (rec.agentId !== agentId || rec.spec.backend !== 'native') continue;
    const bounds = await log.bounds(rec.sessionId);
    await log.append(rec.sessionId, {
      type: 'event',
      seq: bounds.lastSeq + 1,
      id: newId(),
      ts: Date.now(),
      op: 'pty.session_frame',
      payload: { kind: 'Closed', exit_code: null, reason: 'instance_terminated', detail: 'the agent restarted' },
    });
    await registry.update(rec.sessionId, {
      state: 'closed',
      closedAt: Date.now(),
      exitCode: null,
      closedReason: 'instance_terminated',
    });
    closed.push(rec.sessionId);
  }
  return closed;
}
