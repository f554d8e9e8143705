import { readdirSync } from 'node:fs';
import { procStat } from '../shell/foreground';

/** `/proc/PID/stat` fields after "(comm)": state ppid pgrp session. */
const PGRP = 2;
const SESSION = 3;

/**
 * The terminal session (setsid) process `pid` belongs to (Linux /proc); undefined when it is gone
 * or /proc cannot tell. A multiplexer runs each pane or window in a session of its own, led by
 * the wrapper that runs the program there.
 */
export function sessionOf(pid: number): number | undefined {
  try {
    const sid = Number(procStat(pid)[SESSION]);
    return Number.isInteger(sid) && sid > 1 ? sid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends `signal` to every process group of session `sid`: the wrapper, the program, whatever it
 * started, and the jobs of a shell with job control (each in a group of its own). Never the
 * agent's own session. Returns how many groups were signalled (0: nothing of it is left).
 */
export function signalSession(sid: number, signal: NodeJS.Signals): number {
  if (sid <= 1 || sid === sessionOf(process.pid)) return 0;
  const groups = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = procStat(Number(entry));
      const pgrp = Number(stat[PGRP]);
      if (Number(stat[SESSION]) === sid && stat[0] !== 'Z' && pgrp > 1) groups.add(pgrp);
    } catch {
      /* gone meanwhile */
    }
  }
  for (const pgrp of groups) {
    try {
      process.kill(-pgrp, signal);
    } catch {
      /* ended meanwhile */
    }
  }
  return groups.size;
}
