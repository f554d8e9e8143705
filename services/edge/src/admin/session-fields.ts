import type { SessionRecord } from '@pty-ws/ports';

/**
 * The fields every admin view of a session starts with (REST JSON and the gRPC `Session`
 * message share these names); timestamps, optional fields and the attach URL differ per binding.
 */
export function sessionFields(rec: SessionRecord) {
  return {
    session_id: rec.sessionId,
    instance_id: rec.instanceId,
    agent_id: rec.agentId,
    state: rec.state,
    argv: rec.spec.argv,
    cwd: rec.spec.cwd,
    cols: rec.spec.size.cols,
    rows: rec.spec.size.rows,
    session_backend: rec.spec.backend,
    session_class: rec.spec.sessionClass,
  };
}
