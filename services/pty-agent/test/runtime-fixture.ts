import { MemoryFrameLog, MemoryMembershipStore } from '@pty-ws/adapters-memory';
import type { PtyProcess, SessionRecord, SessionSpec } from '@pty-ws/ports';
import { SessionRuntime } from '@pty-ws/pty-agent';

type RuntimeOptions = ConstructorParameters<typeof SessionRuntime>[3];

/** A running session's record for `spec`, owned by agent `agent` of instance `test`. */
export function sessionRecord(sessionId: string, spec: SessionSpec): SessionRecord {
  return { sessionId, instanceId: 'test', agentId: 'agent', spec, state: 'running', createdAt: Date.now() };
}

/**
 * A SessionRuntime on `proc` with small test settings (2 ms coalescing, 4 KiB frames, a keyframe
 * every 100 frames, a memory log), any of them overridden by `options`.
 */
export function startRuntime(
  record: SessionRecord,
  proc: PtyProcess,
  options: Partial<RuntimeOptions> = {},
): { runtime: SessionRuntime; log: MemoryFrameLog } {
  const log = options.log instanceof MemoryFrameLog ? options.log : new MemoryFrameLog();
  const runtime = new SessionRuntime(record, proc, 0, {
    caps: { maxControllers: 4, maxObservers: 8 },
    keyframeIntervalMs: 60_000,
    keyframeIntervalFrames: 100,
    outputCoalesceMs: 2,
    outputFrameBytes: 4096,
    retention: { minFrames: 1000, minAgeMs: 60_000 },
    membershipStore: new MemoryMembershipStore(),
    logger: { info: () => {}, warn: () => {} },
    ...options,
    log,
  });
  return { runtime, log };
}
