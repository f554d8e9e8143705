/** Where the numbers were measured: without this a figure cannot be compared with another run. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { clockTicks } from './proc';

export interface MachineInfo {
  cpus: number;
  cpu_model: string;
  node: string;
  /** The bench process's own `node` options (its readers run there): SERVICE_NODE_FLAGS under npm run bench. */
  node_options: string[];
  /** The bench process's GLIBC_TUNABLES (SERVICE_ENV under npm run bench; every service and floor gets SERVICE_ENV). */
  glibc_tunables: string | null;
  /** /sys/kernel/mm/transparent_hugepage/enabled, the selected mode ('madvise': what glibc.malloc.hugetlb=1 asks for is granted). */
  transparent_hugepage: string;
  platform: string;
  kernel: string;
  arch: string;
  total_mem_mb: number;
  loadavg_1m_at_start: number;
  clk_tck: number;
  git: string;
}

function gitDescribe(cwd: string): string {
  try {
    return execFileSync('git', ['describe', '--always', '--dirty'], { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();
  } catch {
    return 'unknown';
  }
}

function thpMode(): string {
  try {
    const text = readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8');
    return /\[(\w+)\]/.exec(text)?.[1] ?? text.trim();
  } catch {
    return 'unknown';
  }
}

export function machineInfo(repoRoot: string): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpu_model: list[0]?.model.trim() ?? 'unknown',
    node: process.version,
    node_options: [...process.execArgv],
    glibc_tunables: process.env['GLIBC_TUNABLES'] ?? null,
    transparent_hugepage: thpMode(),
    platform: process.platform,
    kernel: release(),
    arch: process.arch,
    total_mem_mb: Math.round(totalmem() / 2 ** 20),
    loadavg_1m_at_start: loadavg()[0] ?? 0,
    clk_tck: clockTicks(),
    git: gitDescribe(repoRoot),
  };
}
