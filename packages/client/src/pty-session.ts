import type { OutputStream } from '@pty-ws/protocol';
import { PtyWsError } from './errors';
import type { EmitFn } from './emitter';
import type { MembershipEvent, PtyClientEvents, RoleEvent } from './events';
import type { RequestTracker } from './requests';
import { decodeSessionFrame, type SessionFrame } from './session-frames';

/**
 * The client's view of the PTY on the current connection: its role, the membership snapshot, the
 * geometry, the join flush in progress, and the Keyframe anchor below which Output is dropped.
 */
export class PtySession {
  role: RoleEvent | undefined;
  membership: MembershipEvent | undefined;
  size: { cols: number; rows: number } | undefined;
  /** True once the join flush's Keyframe arrived on the current connection. */
  joined = false;
  /** Set by a `Closed` frame: the process is gone. */
  processExited = false;
  /** The join whose flush is in progress: resolves at its Keyframe with the RoleAssigned seen first. */
  private flush: { id: string; replayFrom: number | undefined; role?: RoleEvent } | undefined;
  /** Output and Resize with a sequence ≤ this are already in the last Keyframe (extension rule). */
  private discardThrough = -1;
  /** Requests answered by the next RoleAssigned / Keyframe rather than a `.Response` frame. */
  private roleWaiters: string[] = [];
  private keyframeWaiters: string[] = [];

  constructor(
    private readonly requests: RequestTracker,
    private readonly emit: EmitFn<PtyClientEvents>,
  ) {}

  get joining(): boolean {
    return this.flush !== undefined;
  }

  /** The join request `id` is in flight; its answer is the flush, not a `.Response` frame. */
  beginJoin(id: string, replayFrom: number | undefined): void {
    this.flush = { id, replayFrom };
  }

  endJoin(id: string): void {
    if (this.flush?.id === id) this.flush = undefined;
  }

  awaitRole(id: string): void {
    this.roleWaiters.push(id);
  }

  awaitKeyframe(id: string): void {
    this.keyframeWaiters.push(id);
  }

  /**
   * If this Error answers the join with REPLAY_OUT_OF_RANGE, reports `replayLost` and returns true:
   * binding §8.3 / docs/spec/README.md interpretation 3 — the join goes on with a fresh Keyframe, and the client
   * must treat its prior state as lost.
   */
  absorbReplayError(error: PtyWsError, frameId: string, pending: boolean, lastSequence: number): boolean {
    if (error.code !== 'REPLAY_OUT_OF_RANGE' || (pending && this.flush?.id !== frameId)) return false;
    this.emit('replayLost', { replayFrom: this.flush?.replayFrom ?? lastSequence, error });
    return true;
  }

  /** The connection is gone: nothing of it carries over except what the user sees (role, size…). */
  dropConnection(): void {
    this.joined = false;
    this.flush = undefined;
    this.roleWaiters = [];
    this.keyframeWaiters = [];
  }

  output(data: Uint8Array, sequence: number, stream: OutputStream): void {
    // Extension rule: after applying a Keyframe, frames at or below its anchor are already on screen.
    if (sequence <= this.discardThrough) return;
    this.emit('output', { data, sequence, stream, replayed: this.flush !== undefined });
  }

  sessionFrame(payload: Record<string, unknown>, sequence: number): void {
    let decoded: SessionFrame | undefined;
    try {
      decoded = decodeSessionFrame(payload, sequence);
    } catch (err) {
      return this.emit(
        'error',
        new PtyWsError('PROTOCOL_ERROR', `undecodable session frame: ${String(err)}`, { cause: err }),
      );
    }
    if (!decoded) return;
    switch (decoded.kind) {
      case 'Output':
        return this.output(decoded.data, decoded.sequence, decoded.stream);
      case 'Resize':
        if (sequence <= this.discardThrough) return;
        this.size = { cols: decoded.event.cols, rows: decoded.event.rows };
        return this.emit('resize', decoded.event);
      case 'RoleAssigned':
        this.role = decoded.event;
        this.emit('role', decoded.event);
        if (this.flush && !this.flush.role) this.flush.role = decoded.event;
        else this.settle(this.roleWaiters, decoded.event);
        return;
      case 'MembershipChanged':
        this.membership = decoded.event;
        return this.emit('membership', decoded.event);
      case 'Keyframe': {
        const ev = decoded.event;
        this.discardThrough = Math.max(this.discardThrough, ev.anchorSequence);
        this.size = { cols: ev.cols, rows: ev.rows };
        this.emit('keyframe', ev);
        const flush = this.flush;
        if (flush?.role) {
          this.flush = undefined;
          this.joined = true;
          this.requests.resolve(flush.id, flush.role);
        } else {
          this.settle(this.keyframeWaiters, ev);
        }
        return;
      }
      case 'Closed':
        this.processExited = true;
        return this.emit('closed', decoded.event);
      case 'Error':
        return this.emit('ptyError', decoded.event);
    }
  }

  private settle(waiters: string[], value: unknown): void {
    while (waiters.length > 0) {
      const id = waiters.shift() as string;
      if (this.requests.has(id)) return this.requests.resolve(id, value);
    }
  }
}
