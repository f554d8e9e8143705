/**
 * Decides, after every connect, close and reconnect attempt, what the client does next, by the
 * table in reconnect-table.ts. It owns the phase, the attempt count and the backoff pause; opening
 * a connection, re-joining and tearing down are the host's (PtyClient's) work. All time goes
 * through the injected Clock, so tests walk a manual clock through the backoff.
 */
import type { Clock, ClockTimer } from './clock';
import type { CloseInfo } from './connection';
import { asPtyWsError, PtyWsError } from './errors';
import type { EmitFn } from './emitter';
import type { ConnectionState, PtyClientEvents } from './events';
import { backoffDelay, type ReconnectOptions } from './options';
import {
  publicState,
  TRANSITIONS,
  type Action,
  type Phase,
  type SupervisorEventType,
  type Transition,
} from './reconnect-table';

export interface SupervisorEvent {
  type: SupervisorEventType;
  /** The error an ending transition reports and fails the client's waiters with. */
  error?: PtyWsError;
}

/** What the supervisor needs from the client it supervises. */
export interface SupervisorHost {
  /** A final goodbye or the process's `Closed`: reconnecting cannot bring the session back. */
  sessionOver(): boolean;
  /** The highest sequence received: the `replay_from` of a reconnect. */
  lastSequence(): number;
  /** Opens a connection, re-joins with `replay_from` and resubscribes task streams; rejects on any failure. */
  restore(replayFrom: number): Promise<void>;
  /** Closes what a failed attempt left open. */
  dropAttempt(): void;
  /** Ends the client: connection, requests, streams, waiters (failed with `error` when given). */
  teardown(error: PtyWsError | undefined): void;
  stateChanged(state: ConnectionState, previous: ConnectionState): void;
  /** The client's events: `disconnect`, `reconnecting` and `error` come from here. */
  emit: EmitFn<PtyClientEvents>;
}

export class ReconnectSupervisor {
  private current: Phase = 'idle';
  /** Set by leave()/close(): the user ended the client, so nothing reconnects. */
  private ending: 'leave' | 'close' | undefined;
  private attemptNo = 0;
  /** Attempts started so far in this client's life: an outcome of an older one is ignored. */
  private attemptSerial = 0;
  private replayFrom = 0;
  private pause: ClockTimer | undefined;
  /** The latest close of a connection, read when an attempt fails (its fatal close code wins). */
  private lastClose: CloseInfo | undefined;

  constructor(
    private readonly host: SupervisorHost,
    private readonly clock: Clock,
    private readonly options: Required<ReconnectOptions> | undefined,
    /** Jitter source; tests fix it with `jitter: 0`. */
    private readonly random: () => number = Math.random,
  ) {}

  get phase(): Phase {
    return this.current;
  }

  get state(): ConnectionState {
    return publicState(this.current);
  }

  /** leave() or close() was called since the last connect(). */
  get stopping(): boolean {
    return this.ending !== undefined;
  }

  /** connect() from idle or closed. */
  connect(): void {
    this.ending = undefined;
    this.fire({ type: 'connect' });
  }

  connected(): void {
    this.fire({ type: 'connected' });
  }

  connectFailed(error: PtyWsError): void {
    this.fire({ type: 'connectFailed', error });
  }

  /** leave() began: no reconnect from here on. */
  leaving(): void {
    this.ending ??= 'leave';
  }

  /** close(), or the end of leave(): the client ends now. */
  halt(reason: 'leave' | 'close'): void {
    this.ending ??= reason;
    this.fire({ type: 'halt' });
  }

  /** The open connection closed (the host already dropped its per-connection state). */
  lost(info: CloseInfo): void {
    this.lastClose = info;
    const over = this.stopping || this.host.sessionOver();
    const willReconnect = !over && !info.fatal && this.options !== undefined;
    this.host.emit('disconnect', {
      code: info.code,
      reason: info.reason,
      willReconnect,
      ...(info.fatal ? { error: info.fatal } : {}),
    });
    if (willReconnect) return this.fire({ type: 'lostRetry' });
    if (over) return this.fire({ type: 'lostEnded' });
    const error =
      info.fatal ??
      new PtyWsError('CONNECTION_CLOSED', `connection closed (${info.code}${info.reason ? ` ${info.reason}` : ''})`, {
        closeCode: info.code,
        retryable: true,
      });
    this.fire({ type: 'lostFailed', error });
  }

  /** Applies one event by the table; events the current phase does not list change nothing. */
  private fire(event: SupervisorEvent): void {
    const transition: Transition | undefined = TRANSITIONS[this.current][event.type];
    if (!transition) return;
    for (const action of transition.before ?? []) this.run(action, event);
    const previous = this.current;
    this.current = transition.to;
    const state = publicState(transition.to);
    if (state !== publicState(previous)) this.host.stateChanged(state, publicState(previous));
    for (const action of transition.after ?? []) this.run(action, event);
  }

  private run(action: Action, event: SupervisorEvent): void {
    switch (action) {
      case 'reportError':
        if (event.error) this.host.emit('error', event.error);
        return;
      case 'teardown':
        this.cancelPause();
        return this.host.teardown(event.error);
      case 'beginReconnect':
        this.attemptNo = 0;
        this.replayFrom = this.host.lastSequence();
        return;
      case 'armBackoff':
        return this.armBackoff();
      case 'attempt':
        void this.attempt(++this.attemptSerial);
        return;
      case 'dropAttempt':
        return this.host.dropAttempt();
    }
  }

  private armBackoff(): void {
    const options = this.options as Required<ReconnectOptions>;
    const attempt = ++this.attemptNo;
    const delayMs = backoffDelay(attempt, options, this.random);
    this.host.emit('reconnecting', { attempt, delayMs });
    this.cancelPause();
    this.pause = this.clock.setTimeout(() => {
      this.pause = undefined;
      this.fire({ type: this.host.sessionOver() ? 'halt' : 'elapsed' });
    }, delayMs);
  }

  private cancelPause(): void {
    this.pause?.cancel();
    this.pause = undefined;
  }

  /** One reconnect attempt; its outcome is an event (ignored if the client moved on meanwhile). */
  private async attempt(serial: number): Promise<void> {
    this.lastClose = undefined;
    try {
      await this.host.restore(this.replayFrom);
    } catch (err) {
      if (serial === this.attemptSerial) this.attemptFailed(err);
      return;
    }
    if (serial === this.attemptSerial) this.fire({ type: 'restored' });
  }

  private attemptFailed(err: unknown): void {
    // leave() is waiting for the server's close and ends the client itself.
    if (this.ending === 'leave') return;
    if (this.host.sessionOver()) return this.fire({ type: 'halt' });
    const error = this.lastClose?.fatal ?? asPtyWsError(err);
    if (!error.retryable) return this.fire({ type: 'attemptFatal', error });
    const max = this.options?.maxAttempts ?? 0;
    if (this.attemptNo >= max) {
      const gaveUp = new PtyWsError('RECONNECT_FAILED', `gave up reconnecting after ${max} attempts`, {
        retryable: true,
      });
      return this.fire({ type: 'exhausted', error: gaveUp });
    }
    this.fire({ type: 'attemptRetry' });
  }
}
