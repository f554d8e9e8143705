/**
 * Live idle sessions on one agent (a prompt, then `cat`; nobody attached), created up to each level in turn:
 * the agent process's RSS per session over its baseline (the shells' memory is their own), at once
 * and, for the last level, once their terminal mirrors slept.
 */
import { log, sleep, type Cleanup } from '../phase';
import { rssKb } from '../proc';
import { SessionSet, mapLimit } from '../rest';
import type { Service } from '../service';
import { round } from '../stats';
import type { Collector } from './collect';
import { heapKb } from './heap';

/** A shell's first screen and then nothing: a prompt, and `cat` waiting for input. */
const PROMPT_ARGV = ['/bin/sh', '-c', 'printf "idle $ "; exec cat'];

export interface IdleSessionsLevel {
  sessions: number;
  rss_kb: number;
  per_session_kb: number;
  /** The service's V8 heap used plus external memory (no forced collection). */
  heap_kb: number;
  create_ms: number;
}

export interface IdleSessionsMetric {
  rss_base_kb: number;
  heap_base_kb: number;
  /** Just created: every session's terminal mirror awake. */
  levels: IdleSessionsLevel[];
  /**
   * The last level once the mirrors slept (PTYWS_MIRROR_SLEEP_S, within twice that), after a full
   * collection: RSS (which keeps the pages the emulators had) and the heap in use per session.
   */
  asleep: { sessions: number; rss_kb: number; per_session_kb: number; heap_kb: number; heap_per_session_kb: number };
}

export async function idleSessions(
  svc: Service,
  levels: number[],
  mirrorSleepMs: number,
  gc: Collector,
  cleanup: Cleanup,
): Promise<IdleSessionsMetric> {
  const set = new SessionSet(svc);
  cleanup.add(() => set.deleteAll());
  // One session first, so lazily loaded code and first-use allocations are not billed to the rest.
  await set.delete(await set.create(PROMPT_ARGV));
  // A full collection at the baseline too, so both heap figures are what is in use. Writing the
  // snapshot that forces it leaves RSS higher (malloc keeps what the writer freed): the RSS
  // baseline is read after it, and V8's pages for the sessions are mapped anew regardless.
  await gc.collect(svc.hostPid);
  await sleep(1000);
  const base = rssKb(svc.hostPid);
  const heapBase = await heapKb(svc);
  const out: IdleSessionsLevel[] = [];
  let count = 0;
  for (const level of levels) {
    const t0 = performance.now();
    await mapLimit(Array.from({ length: Math.max(0, level - count) }), 8, () => set.create(PROMPT_ARGV));
    count = Math.max(count, level);
    const createMs = performance.now() - t0;
    await sleep(1500);
    const rss = rssKb(svc.hostPid);
    out.push({
      sessions: level,
      rss_kb: rss,
      per_session_kb: round((rss - base) / level, 1),
      heap_kb: await heapKb(svc),
      create_ms: round(createMs, 0),
    });
    log(`  idle sessions ${level}: ${out[out.length - 1]?.per_session_kb} KB each`);
  }
  await sleep(2 * mirrorSleepMs + 2000);
  // The emulators let go are garbage until a full collection: one is forced, so the figure is what is in use.
  await gc.collect(svc.hostPid);
  await sleep(1000);
  const rss = rssKb(svc.hostPid);
  const heap = await heapKb(svc);
  const asleep = {
    sessions: count,
    rss_kb: rss,
    per_session_kb: round((rss - base) / count, 1),
    heap_kb: heap,
    heap_per_session_kb: round((heap - heapBase) / count, 1),
  };
  log(
    `  idle sessions ${count}, mirrors asleep: heap ${asleep.heap_per_session_kb} KB each, RSS ${asleep.per_session_kb} KB`,
  );
  return { rss_base_kb: base, heap_base_kb: heapBase, levels: out, asleep };
}
