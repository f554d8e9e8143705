/**
 * The transcript archive's byte quotas on one agent: per session (PTYWS_TRANSCRIPT_SESSION_BYTES)
 * and over the agent's live sessions together (PTYWS_TRANSCRIPT_AGENT_BYTES). Each archiver
 * reports what its session stores after every chunk; the answer is how much it may keep, and the
 * archiver then drops its oldest chunks. The session writing is the one trimmed when the agent's
 * total is over, so a flood pays for itself. Closed sessions are bounded by the session quota and
 * PTYWS_CLOSED_SESSION_TTL_S.
 */
export class ArchiveQuota {
  private readonly stored = new Map<string, number>();
  private total = 0;

  constructor(
    /** 0: no per-session limit. */
    readonly sessionBytes: number,
    /** 0: no per-agent limit. */
    readonly agentBytes: number,
  ) {}

  /** Records what `sessionId` stores; the bytes it may keep when that is over a quota, else undefined. */
  report(sessionId: string, bytes: number): number | undefined {
    this.total += bytes - (this.stored.get(sessionId) ?? 0);
    this.stored.set(sessionId, bytes);
    let allowed = Infinity;
    if (this.sessionBytes > 0 && bytes > this.sessionBytes) allowed = this.sessionBytes;
    if (this.agentBytes > 0 && this.total > this.agentBytes) {
      allowed = Math.min(allowed, Math.max(0, this.agentBytes - (this.total - bytes)));
    }
    return allowed === Infinity ? undefined : allowed;
  }

  /** The session's archiver ended: its archive no longer counts towards the agent's total. */
  forget(sessionId: string): void {
    this.total -= this.stored.get(sessionId) ?? 0;
    this.stored.delete(sessionId);
  }
}
