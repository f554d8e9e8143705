import { readFileSync } from 'node:fs';

/**
 * The fields of `/proc/PID/stat` after "(comm)", from `state` on (state ppid pgrp session tty_nr
 * tpgid …); comm may contain spaces and parentheses, so it is cut at the last ')'. Throws when
 * the process is gone.
 */
export function procStat(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * Whether a job other than the shell itself holds the shell's terminal (Linux /proc): the
 * terminal's foreground process group differs from the shell's own. False when it cannot tell.
 */
export function foregroundJobOf(shellPid: number): boolean {
  try {
    const rest = procStat(shellPid);
    const pgrp = Number(rest[2]);
    const tpgid = Number(rest[5]);
    return tpgid > 0 && tpgid !== pgrp;
  } catch {
    return false;
  }
}
