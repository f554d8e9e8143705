import type { DecodedOutput } from '@pty-ws/protocol';
import { PtyWsError } from './errors';
import type { EmitFn } from './emitter';
import type { PtyClientEvents } from './events';
import type { PtySession } from './pty-session';
import type { RequestTracker } from './requests';
import type { TaskOps } from './task-ops';
import { payloadRecord, type ServerFrame } from './wire';

/** goodbye reasons after which reconnecting cannot bring the session back. */
const FINAL_GOODBYES: ReadonlySet<string> = new Set(['session_closed', 'principal_revoked']);

/**
 * Routes what the server sends on the current connection: answers to their requests, session
 * frames to the PtySession, task updates to their streams, the rest as events. Tracks the highest
 * sequence seen (the `replay_from` of a reconnect) and whether a goodbye ended the session.
 */
export class Inbound {
  /** Highest `sequence` received on any connection (README interpretation 1). */
  lastSequence = 0;
  /** Set by a final goodbye; cleared by connect(). */
  goodbyeFinal = false;

  constructor(
    private readonly requests: RequestTracker,
    private readonly pty: PtySession,
    private readonly tasks: TaskOps,
    private readonly emit: EmitFn<PtyClientEvents>,
  ) {}

  frame(frame: ServerFrame): void {
    if (frame.sequence !== undefined && frame.sequence > this.lastSequence) this.lastSequence = frame.sequence;
    if (frame.op === 'Error') return this.error(frame);
    if (this.requests.settleFromFrame(frame)) return;
    switch (frame.op) {
      case 'pty.session_frame':
        return this.pty.sessionFrame(payloadRecord(frame), frame.sequence ?? this.lastSequence);
      case 'TaskStatusUpdate':
        return this.tasks.update(frame, this.lastSequence);
      case 'binding_goodbye': {
        const reason = payloadRecord(frame)['reason'];
        const r = typeof reason === 'string' ? reason : 'other';
        if (FINAL_GOODBYES.has(r)) this.goodbyeFinal = true;
        return this.emit('goodbye', { reason: r });
      }
      default:
        // Late responses (after a timeout) and ops added by later 1.x versions are ignored.
        return;
    }
  }

  output(output: DecodedOutput): void {
    if (output.sequence > this.lastSequence) this.lastSequence = output.sequence;
    this.pty.output(output.data, output.sequence, output.stream);
  }

  private error(frame: ServerFrame): void {
    const pending = this.requests.has(frame.id);
    const error = PtyWsError.fromPayload(frame.payload, frame.id || undefined, this.requests.opOf(frame.id));
    if (this.pty.absorbReplayError(error, frame.id, pending, this.lastSequence)) return;
    if (pending) return this.requests.reject(frame.id, error);
    this.emit('error', error);
  }
}
