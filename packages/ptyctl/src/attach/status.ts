/**
 * Status lines of `ptyctl attach` on stderr. In raw mode "\n" does not return the carriage, so
 * lines are framed with "\r\n"; they start on a fresh line to stay readable over remote output.
 */
export function statusLine(text: string, raw: boolean): void {
  process.stderr.write(raw ? `\r\n[ptyctl] ${text}\r\n` : `[ptyctl] ${text}\n`);
}
