import { BindingError, MAX_DIMENSION, MIN_COLS, MIN_ROWS } from '@pty-ws/protocol';
import { isPtyFailure, type Keyframe } from '@pty-ws/ports';
import { canControl } from '../auth';
import type { BindingContext } from './binding-context';
import type { Conn } from './connection';
import { sendKeyframe, sendPtyError } from './frame-writer';

/** Terminal sizes outside these bounds are refused (spec README interpretation 5). */
export function checkSize(cols: number, rows: number): void {
  if (cols < MIN_COLS || rows < MIN_ROWS || cols > MAX_DIMENSION || rows > MAX_DIMENSION) {
    throw new BindingError(
      'INVALID_REQUEST',
      `terminal size ${cols}x${rows} is outside ${MIN_COLS}..${MAX_DIMENSION} cols x ${MIN_ROWS}..${MAX_DIMENSION} rows`,
    );
  }
}

/** Input, resize and keyframes: what a joined connection does to the terminal itself. */
export class PtyVerbs {
  constructor(private readonly ctx: BindingContext) {}

  async input(conn: Conn, data: Uint8Array): Promise<void> {
    if (!canControl(conn.principal)) throw new BindingError('PERMISSION_DENIED', 'the principal lacks pty:control');
    if (conn.role !== 'controller') throw new BindingError('PERMISSION_DENIED', 'observers cannot send input');
    const { deps } = this.ctx;
    deps.hubs.get(conn.sessionId)?.markInput();
    deps.audit?.input(conn, data.byteLength);
    try {
      await deps.control.input(conn.sessionId, conn.clientId, data);
    } catch (err) {
      if (isPtyFailure(err)) return sendPtyError(conn, err.code, err.message);
      throw err;
    }
  }

  async resize(conn: Conn, cols: number, rows: number, requestId: string): Promise<void> {
    if (!canControl(conn.principal)) throw new BindingError('PERMISSION_DENIED', 'the principal lacks pty:control');
    if (conn.role !== 'controller') throw new BindingError('PERMISSION_DENIED', 'observers cannot resize');
    try {
      checkSize(cols, rows);
    } catch (err) {
      this.ctx.log(conn).info({ cols, rows }, 'pty_resize rejected');
      throw err;
    }
    const { deps } = this.ctx;
    try {
      await deps.control.resize(conn.sessionId, conn.clientId, { cols, rows });
      deps.audit?.resize(conn, cols, rows);
      this.ctx.log(conn).info({ cols, rows, request_id: requestId }, 'pty_resize accepted');
    } catch (err) {
      if (isPtyFailure(err)) return sendPtyError(conn, err.code, err.message);
      throw err;
    }
  }

  async requestKeyframe(conn: Conn): Promise<void> {
    const now = this.ctx.clock.now();
    if (now - conn.lastKeyframeRequestAt < 1000) {
      this.ctx.deps.metrics?.rateLimited('request_keyframe');
      throw new BindingError('RATE_LIMITED', 'pty.request_keyframe is limited to one per second per connection');
    }
    conn.lastKeyframeRequestAt = now;
    sendKeyframe(conn, await this.keyframeOrFail(conn));
  }

  private async keyframeOrFail(conn: Conn): Promise<Keyframe> {
    try {
      return await this.ctx.deps.control.keyframe(conn.sessionId);
    } catch (err) {
      if (err instanceof BindingError) throw err;
      throw new BindingError('INTERNAL', `keyframe unavailable: ${(err as Error).message}`);
    }
  }

  /** A lagged observer drained: tell it what happened and hand it a fresh screen. */
  async resumeLagged(conn: Conn): Promise<void> {
    const hub = this.ctx.deps.hubs.get(conn.sessionId);
    if (!hub || !hub.drained(conn)) return;
    sendPtyError(
      conn,
      'PTY_OUTPUT_LAGGED',
      'output was skipped because this connection fell behind; a Keyframe follows',
    );
    try {
      sendKeyframe(conn, await this.ctx.deps.control.keyframe(conn.sessionId));
    } catch {
      sendPtyError(conn, 'KEYFRAME_UNAVAILABLE', 'no keyframe could be made after the lag');
    }
    await hub.catchUp(conn);
  }
}
