import type { ArchiveStats, LogBounds, MembershipStore, SessionRecord } from '@pty-ws/ports';

/** Live member counts of a session; a closed session has none. */
export async function membersOf(
  store: MembershipStore | undefined,
  rec: SessionRecord,
): Promise<{ controllers: number; observers: number }> {
  if (!store || rec.state === 'closed') return { controllers: 0, observers: 0 };
  const members = await store.load(rec.sessionId).catch(() => []);
  const controllers = members.filter((m) => m.role === 'controller').length;
  return { controllers, observers: members.length - controllers };
}

/**
 * Replay counters of the sessions API: how much of the session the hot log still holds, how much
 * the transcript archive holds, and whether the session has outgrown its replay window (frames
 * older than `first_sequence` can no longer be replayed, only read through the transcript API).
 */
export function replayCounters(
  bounds: LogBounds,
  archived: ArchiveStats | undefined,
): {
  frames_retained: number;
  frames_archived: number | null;
  archived_through: number | null;
  evicted_frames: number;
  overflowed: boolean;
} {
  return {
    frames_retained: Math.max(0, bounds.lastSeq - bounds.firstSeq + 1),
    frames_archived: archived ? archived.frames : null,
    archived_through: archived ? archived.lastSeq : null,
    evicted_frames: Math.max(0, bounds.firstSeq - 1),
    overflowed: bounds.firstSeq > 1,
  };
}
