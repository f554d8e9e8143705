/**
 * Observers per session: sockets are spread round-robin over idle sessions created before the
 * baseline. A join tells every member of its session (MembershipChanged), so 10k observers of one
 * session cost 50M messages to open; 50 a session is a crowd watching each terminal.
 */
const PER_SESSION = 50;

/**
 * Idle observer sockets on one edge: joined observers of idle sessions, opened up to each level
 * in turn; at each, the service's RSS over its level-0 baseline per socket, and its CPU while every
 * socket sits idle (keepalive pings are all that runs).
 */
import { readFileSync } from 'node:fs';
import { log, sleep, type Cleanup } from '../phase';
import { CpuMeter, rssKb } from '../proc';
import { IDLE_ARGV } from '../programs';
import { SessionSet, attachUrl, mapLimit } from '../rest';
import type { Service } from '../service';
import { round } from '../stats';
import { member, type BenchSocket } from '../ws-client';

export interface IdleSocketsLevel {
  sockets: number;
  rss_kb: number;
  per_socket_kb: number;
  cpu_at_rest_pct: number;
  open_ms: number;
}

export interface IdleSocketsMetric {
  rss_base_kb: number;
  levels: IdleSocketsLevel[];
}

/** The soft limit on open files of this process (its children inherit it). */
export function openFileLimit(): number {
  const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  return !m || m[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(m[1]);
}

/** Levels this process can hold open (each socket is a descriptor here and one in the service). */
export function levelsWithinFileLimit(levels: number[]): number[] {
  const limit = openFileLimit();
  const fit = levels.filter((n) => n + 512 <= limit);
  if (fit.length < levels.length)
    log(
      `capacity: ulimit -n is ${limit}: socket levels above ${limit - 512} left out (npm run capacity raises the soft limit to the hard one)`,
    );
  return fit;
}

export async function idleSockets(
  svc: Service,
  levels: number[],
  restMs: number,
  cleanup: Cleanup,
): Promise<IdleSocketsMetric> {
  const set = new SessionSet(svc);
  cleanup.add(() => set.deleteAll());
  const count = Math.max(1, Math.ceil(Math.max(...levels, 1) / PER_SESSION));
  const ids = await mapLimit(Array.from({ length: count }), 8, () => set.create(IDLE_ARGV));
  const urls = ids.map((id) => attachUrl(svc, id));
  const url = (i: number): string => urls[i % urls.length] as string;
  const sockets: BenchSocket[] = [];
  cleanup.add(() => sockets.forEach((s) => s.terminate()));
  // One observer per session first, not counted: each session's mirror wakes for its first join
  // (a keyframe), and the join path's first-use allocations are not billed to the sockets.
  sockets.push(...(await mapLimit(urls, 8, (u) => member(u, svc.token, 'observer'))));
  const warm = sockets.length;
  await sleep(500);
  const base = rssKb(svc.hostPid);
  const out: IdleSocketsLevel[] = [];
  for (const level of levels) {
    const t0 = performance.now();
    const more = Math.max(0, level + warm - sockets.length);
    const first = sockets.length;
    sockets.push(
      ...(await mapLimit(Array.from({ length: more }), 64, (_, i) => member(url(first + i), svc.token, 'observer'))),
    );
    const openMs = performance.now() - t0;
    // Allocation settles (socket buffers, V8's young generation) before the resident set is read.
    await sleep(1000);
    const rss = rssKb(svc.hostPid);
    const cpu = new CpuMeter(svc.cpuPids);
    await sleep(restMs);
    const closed = sockets.filter((s) => s.closed).length;
    if (closed > 0) throw new Error(`${closed} of ${sockets.length} idle sockets were closed by the service`);
    out.push({
      sockets: level,
      rss_kb: rss,
      per_socket_kb: round((rss - base) / level, 1),
      cpu_at_rest_pct: round(cpu.percent(), 1),
      open_ms: round(openMs, 0),
    });
    log(
      `  idle sockets ${level}: ${out[out.length - 1]?.per_socket_kb} KB each, CPU at rest ${out[out.length - 1]?.cpu_at_rest_pct} %`,
    );
  }
  return { rss_base_kb: base, levels: out };
}
