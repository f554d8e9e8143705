/**
 * The MembershipChanged frames of one session, batched per turn of the event loop. Kept apart from
 * the runtime, which decides the changes; this only decides when they are told and saved.
 */
import type { MembershipStore } from '@pty-ws/ports';
import type { Membership } from './membership';
import type { Sequencer } from './sequencer';

export interface MembershipBatchOptions {
  sessionId: string;
  membership: Membership;
  /** Where the member list is saved with every frame (a failed save is not the change's failure). */
  store: MembershipStore;
  sequencer: Sequencer;
}

/**
 * Changes in the same turn of the event loop share one frame, logged once they are all applied
 * (setImmediate), so it holds every one of them. An attach storm then costs one full member list
 * per batch, not one per join sent to every member.
 */
export class MembershipBatch {
  /** MembershipChanged requested in this turn of the event loop: one frame answers them all. */
  private pending: { seq: Promise<number>; log: () => void } | undefined;

  constructor(private readonly o: MembershipBatchOptions) {}

  /**
   * The MembershipChanged for a join, leave or role change: resolves to its sequence. Each joiner
   * still gets it after its RoleAssigned and before its Keyframe: the keyframe is taken after this
   * resolves.
   */
  log(): Promise<number> {
    if (this.pending) return this.pending.seq;
    let resolve!: (seq: number) => void;
    const seq = new Promise<number>((r) => (resolve = r));
    const batch = {
      seq,
      log: () => {
        if (this.pending !== batch) return;
        this.pending = undefined;
        const { membership, sequencer } = this.o;
        const snap = membership.snapshot();
        void this.o.store.save(this.o.sessionId, membership.all()).catch(() => undefined);
        resolve(sequencer.event('pty.session_frame', { kind: 'MembershipChanged', ...snap }));
      },
    };
    this.pending = batch;
    setImmediate(batch.log);
    return seq;
  }

  /** Logs a pending MembershipChanged now: before `Closed`, nothing may follow it. */
  flush(): void {
    this.pending?.log();
  }
}
