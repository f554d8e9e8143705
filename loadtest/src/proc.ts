/**
 * CPU and memory of a process from /proc (Linux only). The server runs as a child process so its
 * figures are not mixed with the benchmark's own work; the raw baseline reads its own pid.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let clkTck: number | undefined;

/** Kernel clock ticks per second (utime/stime unit); 100 on every common Linux. */
export function clockTicks(): number {
  if (clkTck === undefined) {
    try {
      clkTck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clkTck = 100;
    }
  }
  return clkTck;
}

/** utime + stime of a process, in seconds. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may itself contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5), i.e. 11 and 12 after the state field.
  return (Number(fields[11]) + Number(fields[12])) / clockTicks();
}

/** Resident set size of a process in KiB (VmRSS). */
export function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]);
}

/** CPU% of a set of processes over an interval (100 = one core fully busy). */
export class CpuMeter {
  private readonly start: number;
  private readonly at = performance.now();

  constructor(private readonly pids: number[]) {
    this.start = this.total();
  }

  private total(): number {
    return this.pids.reduce((s, pid) => s + cpuSeconds(pid), 0);
  }

  percent(): number {
    const wallS = (performance.now() - this.at) / 1000;
    return wallS > 0 ? ((this.total() - this.start) / wallS) * 100 : NaN;
  }
}
