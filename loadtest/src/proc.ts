/**
 * CPU and memory of a process from /proc (Linux only). The server runs as a child process so its
 * figures are not mixed with the benchmark's own work; the raw baseline reads its own pid.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { procStat, runningRelays } from '@pty-ws/pty-agent/internal';

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
  const fields = procStat(pid);
  // utime and stime are fields 14 and 15 of stat(5), i.e. 11 and 12 after the state field.
  return (Number(fields[11]) + Number(fields[12])) / clockTicks();
}

/**
 * A service process's CPU with its stream relays': its own utime + stime, its reaped children's
 * (cutime + cstime: a relay that ended) and its running relays'. A relay is the service's work
 * done in another process, so leaving it out would flatter the service's CPU per MB.
 */
export function cpuSecondsWithRelays(pid: number): number {
  const fields = procStat(pid);
  let seconds = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / clockTicks();
  for (const relay of runningRelays(pid)) {
    try {
      seconds += cpuSeconds(relay);
    } catch {
      // It ended in between: its time is in the parent's cutime from now on.
    }
  }
  return seconds;
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

  /** `withRelays`: a service's processes, counted with their stream relays (cpuSecondsWithRelays). */
  constructor(
    private readonly pids: number[],
    private readonly withRelays = false,
  ) {
    this.start = this.total();
  }

  private total(): number {
    return this.pids.reduce((s, pid) => s + (this.withRelays ? cpuSecondsWithRelays(pid) : cpuSeconds(pid)), 0);
  }

  percent(): number {
    const wallS = (performance.now() - this.at) / 1000;
    return wallS > 0 ? ((this.total() - this.start) / wallS) * 100 : NaN;
  }
}

/** Busy and total clock ticks of the whole machine so far (/proc/stat; idle and iowait are not busy). */
function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  // cpu user nice system idle iowait irq softirq steal (guest time is already in user and nice)
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = f.reduce((s, v) => s + v, 0);
  return { busy: total - (f[3] ?? 0) - (f[4] ?? 0), total };
}

/**
 * CPU% of the whole machine over an interval, every process together (100 = one core; the
 * number of cores × 100 = no core was ever idle). Near that, a figure is bound by the machine's
 * CPU, not by how the service schedules its work.
 */
export class MachineMeter {
  private readonly start = machineTicks();

  /** NaN (null in the JSON) when the interval was shorter than a clock tick per core. */
  percent(): number {
    const now = machineTicks();
    const total = now.total - this.start.total;
    const cores = cpus().length;
    return total >= cores ? ((now.busy - this.start.busy) / total) * 100 * cores : NaN;
  }
}
