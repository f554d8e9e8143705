import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { procStat } from './foreground';

/** The `read` system call's number (Linux): x86-64 0, arm64 and riscv64 63. */
const READ_SYSCALL = process.arch === 'x64' ? 0 : 63;

/** Where the kernel sleeps a process that reads a terminal (/proc/PID/wchan). */
const TTY_READ_WAITS = new Set(['n_tty_read', 'wait_woken']);

/**
 * Whether process `pid` sleeps in a read of `tty` (Linux /proc); false when it cannot tell.
 * /proc/PID/syscall names the call and its fd; where it cannot be read (a kernel without it, a
 * process the agent may not trace) the sleep's place in the kernel tells, with fd 0 on the tty.
 */
function readsTty(pid: number, tty: string): boolean {
  let call: string;
  try {
    call = readFileSync(`/proc/${pid}/syscall`, 'utf8');
  } catch {
    return waitsOnTty(pid, tty);
  }
  try {
    const [nr, fd] = call.trim().split(' ');
    if (Number(nr) !== READ_SYSCALL || fd === undefined) return false;
    return readlinkSync(`/proc/${pid}/fd/${Number(fd)}`) === tty;
  } catch {
    return false;
  }
}

function waitsOnTty(pid: number, tty: string): boolean {
  try {
    return (
      TTY_READ_WAITS.has(readFileSync(`/proc/${pid}/wchan`, 'utf8').trim()) && readlinkSync(`/proc/${pid}/fd/0`) === tty
    );
  } catch {
    return false;
  }
}

/**
 * Who waits in a read of the shell's terminal, of its foreground process group: a job the shell
 * started (`job`), or the shell itself (`shell`: its `read` builtin, or its own prompt, which the
 * OS cannot tell apart). Undefined when none does, or the OS cannot say.
 */
export function ttyReader(shellPid: number): 'shell' | 'job' | undefined {
  try {
    const tty = readlinkSync(`/proc/${shellPid}/fd/0`);
    const tpgid = Number(procStat(shellPid)[5]);
    if (!(tpgid > 0)) return undefined;
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid) || pid <= 0) continue;
      try {
        if (Number(procStat(pid)[2]) === tpgid && readsTty(pid, tty)) return pid === shellPid ? 'shell' : 'job';
      } catch {
        /* gone meanwhile */
      }
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** Whether the shell's terminal echoes what is typed (`stty -a`); true when it cannot tell. */
export function terminalEchoes(shellPid: number): boolean {
  try {
    const tty = readlinkSync(`/proc/${shellPid}/fd/0`);
    const modes = execFileSync('stty', ['-F', tty, '-a'], { timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] });
    return !/(?:^|\s)-echo(?:\s|$)/.test(modes.toString('utf8'));
  } catch {
    return true;
  }
}
