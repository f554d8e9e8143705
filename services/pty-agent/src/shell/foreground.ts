import { readFileSync } from 'node:fs';

/**
 * Whether a job other than the shell itself holds the shell's terminal (Linux /proc): the
 * terminal's foreground process group differs from the shell's own. False when it cannot tell.
 */
export function foregroundJobOf(shellPid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${shellPid}/stat`, 'utf8');
    // Fields after "(comm)": state ppid pgrp session tty_nr tpgid …; comm may contain spaces.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pgrp = Number(rest[2]);
    const tpgid = Number(rest[5]);
    return tpgid > 0 && tpgid !== pgrp;
  } catch {
    return false;
  }
}
