/**
 * Memory after churn: sessions that print (base64 of 100 KB of random bytes) are created and
 * deleted in batches; the service's RSS before, at its peak and once the agent has let go of the
 * closed sessions (they keep what replay and the transcript need: a registry record, the archive).
 */
import { log, sleep, type Cleanup } from '../phase';
import { rssKb } from '../proc';
import { SessionSet } from '../rest';
import type { Service } from '../service';
import { round } from '../stats';
import type { Collector } from './collect';
import { heapKb } from './heap';

export interface ChurnMetric {
  sessions: number;
  output_bytes_per_session: number;
  rss_before_kb: number;
  rss_peak_kb: number;
  rss_after_kb: number;
  /** V8 heap used plus memory outside it (Buffers), from the service's /metrics; no forced GC. */
  heap_before_kb: number;
  heap_after_kb: number;
}

const BATCH = 20;
const OUTPUT = 100_000;
/** The janitor sweeps once a second: closed, archived whole, let go. */
const SETTLE_MS = 4000;

export async function churn(svc: Service, sessions: number, gc: Collector, cleanup: Cleanup): Promise<ChurnMetric> {
  const set = new SessionSet(svc);
  cleanup.add(() => set.deleteAll());
  const argv = ['/bin/sh', '-c', `head -c ${OUTPUT} /dev/urandom | base64; exec cat`];
  await set.delete(await set.create(argv));
  await sleep(SETTLE_MS);
  await gc.collect(svc.hostPid);
  const before = rssKb(svc.hostPid);
  const heapBefore = await heapKb(svc);
  let peak = before;
  for (let done = 0; done < sessions; done += BATCH) {
    const n = Math.min(BATCH, sessions - done);
    const ids = await Promise.all(Array.from({ length: n }, () => set.create(argv)));
    // Base64 of 100 KB prints within a few hundred ms; the log and the mirror hold it by then.
    await sleep(500);
    peak = Math.max(peak, rssKb(svc.hostPid));
    await Promise.all(ids.map((id) => set.delete(id)));
  }
  await sleep(SETTLE_MS);
  // Both ends after a full collection: what closed sessions still hold, not what awaits the collector.
  await gc.collect(svc.hostPid);
  const after = rssKb(svc.hostPid);
  const heapAfter = await heapKb(svc);
  log(
    `  churn ${sessions}: RSS ${round(before / 1024, 0)} -> peak ${round(peak / 1024, 0)} -> ${round(after / 1024, 0)} MB`,
  );
  return {
    sessions,
    output_bytes_per_session: OUTPUT,
    rss_before_kb: before,
    rss_peak_kb: peak,
    rss_after_kb: after,
    heap_before_kb: heapBefore,
    heap_after_kb: heapAfter,
  };
}
