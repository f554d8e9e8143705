/**
 * The verdict of a reconnect-storm probe, shared by the k6 script (loadtest/k6/reconnect-storm.ts
 * imports this file) and the Node driver: plain ES2020, no imports, so k6 can load it.
 *
 * The session's log has no gaps, and frames addressed to one connection (RoleAssigned, the join's
 * Keyframe, binding Errors) carry the last sequence already written to that connection (0 on a
 * fresh one), so the first frame with a sequence above 0 is the first log frame the re-joined
 * connection got. After `replay_from = lastSeen` it must be lastSeen + 1: a
 * join without replay starts at the log head instead, and a replay that skips frames starts later.
 */
export interface ReplayProbe {
  /** The highest sequence the connection before the drop received (JSON frames and PW1O). */
  lastSeen: number;
  /** The `sequence` of every frame the re-joined connection received, in order (JSON and PW1O). */
  sequences: readonly number[];
  /** The re-join was answered with REPLAY_OUT_OF_RANGE. */
  outOfRange: boolean;
  /** The re-join's flush ended with its Keyframe (a join that never completed proves nothing). */
  keyframe: boolean;
}

/** The first log frame's sequence after a re-join (-1 if none came). */
export function firstLogSequence(sequences: readonly number[]): number {
  for (const s of sequences) if (s > 0) return s;
  return -1;
}

/** True when the replay resumed exactly after the last sequence seen before the drop. */
export function replayResumed(p: ReplayProbe): boolean {
  return !p.outOfRange && p.keyframe && p.lastSeen > 0 && firstLogSequence(p.sequences) === p.lastSeen + 1;
}
