/** Memory per idle session: RSS growth of the session host for N idle `/bin/cat` sessions. */
import type { Cleanup } from '../phase';
import { rssKb } from '../proc';
import { IDLE_ARGV } from '../programs';
import { SessionSet, mapLimit } from '../rest';
import type { Service } from '../service';
import { round } from '../stats';
import type { MemoryMetric } from '../types';

export async function serviceIdleMemory(svc: Service, sessions: number, cleanup: Cleanup): Promise<MemoryMetric> {
  // One session first, so lazily loaded code and first-use allocations are not billed to the 100.
  const set = new SessionSet(svc);
  cleanup.add(() => set.deleteAll());
  await set.create(IDLE_ARGV);
  await new Promise((r) => setTimeout(r, 300));
  const before = rssKb(svc.hostPid);
  await mapLimit(Array.from({ length: sessions }), 10, () => set.create(IDLE_ARGV));
  // Allocation settles (headless terminals, buffers) within a second of creation.
  await new Promise((r) => setTimeout(r, 1000));
  const after = rssKb(svc.hostPid);
  return {
    sessions,
    rss_before_kb: before,
    rss_after_kb: after,
    per_session_kb: round((after - before) / sessions, 1),
  };
}
