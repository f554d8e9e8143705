/**
 * Live idle sessions on one agent (`/bin/cat`, nobody attached), created up to each level in turn:
 * the agent process's RSS per session over its baseline (the shells' memory is their own).
 */
import { log, sleep, type Cleanup } from '../phase';
import { rssKb } from '../proc';
import { IDLE_ARGV } from '../programs';
import { SessionSet, mapLimit } from '../rest';
import type { Service } from '../service';
import { round } from '../stats';

export interface IdleSessionsLevel {
  sessions: number;
  rss_kb: number;
  per_session_kb: number;
  create_ms: number;
}

export interface IdleSessionsMetric {
  rss_base_kb: number;
  levels: IdleSessionsLevel[];
}

export async function idleSessions(svc: Service, levels: number[], cleanup: Cleanup): Promise<IdleSessionsMetric> {
  const set = new SessionSet(svc);
  cleanup.add(() => set.deleteAll());
  // One session first, so lazily loaded code and first-use allocations are not billed to the rest.
  await set.delete(await set.create(IDLE_ARGV));
  await sleep(1000);
  const base = rssKb(svc.hostPid);
  const out: IdleSessionsLevel[] = [];
  let count = 0;
  for (const level of levels) {
    const t0 = performance.now();
    await mapLimit(Array.from({ length: Math.max(0, level - count) }), 8, () => set.create(IDLE_ARGV));
    count = Math.max(count, level);
    const createMs = performance.now() - t0;
    await sleep(1500);
    const rss = rssKb(svc.hostPid);
    out.push({
      sessions: level,
      rss_kb: rss,
      per_session_kb: round((rss - base) / level, 1),
      create_ms: round(createMs, 0),
    });
    log(`  idle sessions ${level}: ${out[out.length - 1]?.per_session_kb} KB each`);
  }
  return { rss_base_kb: base, levels: out };
}
