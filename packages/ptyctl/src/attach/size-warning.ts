import type { Size } from './local-terminal';

/**
 * The session's picture does not fit a terminal smaller than the PTY: lines wrap and the screen
 * is garbled. Says so once for each pair of sizes (again after either side is resized), and
 * nothing while the picture fits.
 */
export class SizeWarning {
  private warnedFor: string | undefined;

  /** The warning for these sizes, or undefined when the picture fits or this was already said. */
  check(local: Size | undefined, remote: Size | undefined): string | undefined {
    if (!local || !remote) return undefined;
    if (local.cols >= remote.cols && local.rows >= remote.rows) {
      this.warnedFor = undefined;
      return undefined;
    }
    const key = `${remote.cols}x${remote.rows} ${local.cols}x${local.rows}`;
    if (key === this.warnedFor) return undefined;
    this.warnedFor = key;
    return (
      `the session is ${remote.cols}x${remote.rows} but this terminal is ${local.cols}x${local.rows}: ` +
      `the picture will be garbled; make this window at least ${remote.cols}x${remote.rows} ` +
      `(or the font smaller), then Ctrl-] r repaints`
    );
  }
}
