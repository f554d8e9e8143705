import type { PtyClient } from '@pty-ws/client';
import { ExitCode } from '../exit-codes';
import type { SessionEnd } from '../session-end';
import { EscapeKeys } from './escape-keys';
import { FULL_RESET, type LocalTerminal, type Size } from './local-terminal';
import { watchResize } from './resize-watch';
import { SizeWarning } from './size-warning';
import { statusLine } from './status';

/** A notice written over the live picture stays this long, then the screen is repainted. */
const NOTICE_MS = 1500;

/** Event wiring between the client and the local terminal for the life of one attach. */
export class AttachView {
  /** Set until a Keyframe is painted: at join, after a reconnect's reset, and on a repaint request. */
  private needKeyframe = true;
  private detachReason: string | undefined;
  private readOnlyNoticeShown = false;
  private noticeTimer: NodeJS.Timeout | undefined;
  private reconnected = false;
  private readonly sizeWarning = new SizeWarning();
  /** Status lines on the same TTY as the picture disturb it until the next repaint. */
  private readonly stderrIsScreen = process.stderr.isTTY === true;

  constructor(
    private readonly client: PtyClient,
    private readonly term: LocalTerminal,
  ) {
    client.on('output', (o) => term.write(o.data));
    client.on('keyframe', (k) => {
      if (!this.needKeyframe) return; // cadence Keyframes repeat what a live stream already drew
      this.needKeyframe = false;
      term.write(FULL_RESET);
      term.write(k.data);
      if (this.reconnected) {
        this.reconnected = false;
        this.notice('reconnected');
      }
      this.warnSizeMismatch(k);
    });
    client.on('resize', (r) => this.warnSizeMismatch(r));
    client.on('reset', () => {
      this.needKeyframe = true;
      this.reconnected = true;
    });
    client.on('replayLost', () => this.status('replay window lost: output while away is gone; repainting'));
    client.on('disconnect', (d) => {
      if (d.willReconnect) this.status(`connection lost (${d.code}); reconnecting…`);
    });
    client.on('reconnecting', (r) => {
      if (r.attempt > 1) this.status(`reconnect attempt ${r.attempt} in ${r.delayMs} ms`);
    });
    client.on('state', ({ state, previous }) => {
      // The SDK re-joins with the size of the first join; the window may have changed since.
      if (state === 'open' && previous === 'reconnecting') this.sendSize();
    });
    client.on('ptyError', (e) => this.notice(`${e.code}: ${e.message}`));
  }

  async run(ended: Promise<SessionEnd>): Promise<SessionEnd> {
    if (this.client.role === 'observer') this.notice('attached read-only (observer); Ctrl-] d detaches');
    this.warnSizeMismatch();
    const keys = new EscapeKeys({
      input: (bytes) => this.input(bytes),
      detach: () => this.detach('detached'),
      resync: () => this.repaint(),
    });
    const onData = (chunk: Buffer): void => keys.feed(chunk);
    this.term.input.on('data', onData);
    const stopResize = watchResize(this.term.output, () => {
      this.sendSize();
      // A controller's new size is checked when the session's Resize comes back.
      if (this.client.role !== 'controller') this.warnSizeMismatch();
    });
    const onSignal = (signal: NodeJS.Signals): void => this.detach(`detached (${signal})`, false);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
    try {
      const end = await ended;
      return this.detachReason !== undefined ? { exitCode: ExitCode.OK, message: this.detachReason } : end;
    } finally {
      if (this.noticeTimer) clearTimeout(this.noticeTimer);
      stopResize();
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
      this.term.input.off('data', onData);
      this.term.restore();
      // The remote cursor may sit mid-line (after a prompt): end messages start on a fresh line.
      this.term.write('\r\n');
    }
  }

  private input(bytes: Uint8Array): void {
    if (this.client.role === 'observer') {
      if (!this.readOnlyNoticeShown) this.notice('read-only (observer): input is not sent; Ctrl-] d detaches');
      this.readOnlyNoticeShown = true;
      return;
    }
    // false while reconnecting: keystrokes are dropped, not queued for a screen that may have changed.
    this.client.input(bytes);
  }

  /** Sends the local size when this client controls the PTY and it differs from the remote one. */
  private sendSize(): void {
    const local = this.term.size();
    if (!local || this.client.role !== 'controller') return;
    const remote = this.client.size;
    if (remote && remote.cols === local.cols && remote.rows === local.rows) return;
    this.client.resize(local.cols, local.rows);
  }

  /**
   * An observer (or a controller whose size did not win) sees the PTY at its size, which may not
   * fit this window. The session's size is known from the first Keyframe on.
   */
  private warnSizeMismatch(remote: Size | undefined = this.client.size): void {
    const { columns: cols, rows } = this.term.output;
    const local = this.term.output.isTTY ? { cols, rows } : undefined;
    const warning = this.sizeWarning.check(local, remote && { cols: remote.cols, rows: remote.rows });
    if (warning !== undefined) this.notice(warning);
  }

  private detach(reason: string, leave = true): void {
    if (this.detachReason !== undefined) return;
    this.detachReason = reason;
    if (leave) void this.client.leave();
    else this.client.close();
  }

  /** Asks for a fresh Keyframe and paints it onto a reset screen (Ctrl-] r, after notices). */
  private repaint(): void {
    this.needKeyframe = true;
    this.client.requestKeyframe().catch(() => {
      // Not joined right now (reconnecting): the re-join's Keyframe repaints anyway.
    });
  }

  private status(text: string): void {
    statusLine(text, this.stderrIsScreen);
  }

  /** A status line over the live picture, wiped by a repaint shortly after. */
  private notice(text: string): void {
    this.status(text);
    if (!this.stderrIsScreen) return;
    if (this.noticeTimer) clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.repaint(), NOTICE_MS);
  }
}
