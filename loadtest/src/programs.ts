/**
 * The programs every target runs, so the raw baseline and the service measure the same work.
 * All of them run under /bin/sh on a PTY of the service's default size (120x30).
 */
export const COLS = 120;
export const ROWS = 30;

/**
 * Application echo like readline: the terminal is raw and `cat` writes each byte back, so a
 * keystroke makes the full trip (input -> process -> output) instead of the kernel's tty echo.
 */
export const ECHO_ARGV = ['/bin/sh', '-c', 'stty raw -echo; exec cat'];

/** What an idle session runs in the memory measurement. */
export const IDLE_ARGV = ['/bin/cat'];

/** Printed after the flood; '#' is outside the base64 alphabet so it cannot occur by chance. */
export const FLOOD_END = '#END#';

/**
 * Waits for one line of input (the start signal, sent once every observer has joined), then
 * prints `bytes` of base64-encoded random data, then the end marker, and stays alive: a process
 * that exits right away can lose its last output when the PTY hangs up (see ARCHITECTURE.md,
 * "Output is drained before Closed"), and the raw baseline has no guard against that.
 *
 * The text goes through `cat`, which writes it in 128 KiB blocks as `cat FILE` does. base64 alone
 * writes to a tty line-buffered, one write(2) per 77-byte line: that capped every reader at about
 * 36 MB/s here (a bare Python read loop as much as raw node-pty) and hid what a server adds to a
 * stream. Through `cat`, raw node-pty reads about 70 MB/s on the same machine.
 */
export function floodArgv(bytes: number): string[] {
  const n = Math.max(1, Math.floor(bytes));
  return [
    '/bin/sh',
    '-c',
    `stty -echo; read _; head -c ${n} /dev/urandom | base64 | cat; printf '\\n${FLOOD_END}\\n'; exec sleep 600`,
  ];
}

export const HISTORY_END = '#HISTORY-DONE#';

/**
 * Prints a line every 7 ms (just above the service's 5 ms output coalescing window, so nearly
 * every line becomes its own log frame) until a line of input arrives; then prints the end
 * marker and stays alive (reading stdin) so the session can be joined.
 */
export function historyArgv(): string[] {
  const script = [
    'let i = 0;',
    "const t = setInterval(() => process.stdout.write('history line ' + i++ + ' ' + '-'.repeat(60) + '\\n'), 7);",
    "process.stdin.once('data', () => {",
    '  clearInterval(t);',
    `  process.stdout.write('${HISTORY_END}\\n');`,
    '});',
  ].join('\n');
  return [process.execPath, '-e', script];
}
