/** Every measurement against one running deployment (embedded or cluster). */
import { serviceAttach } from '../metrics/attach';
import { serviceEcho } from '../metrics/echo';
import { serviceFanout } from '../metrics/fanout';
import { medianFanout, medianStream } from '../metrics/stream-rounds';
import { serviceIdleMemory } from '../metrics/memory';
import { echoRun, type Profile } from '../options';
import { Budget, phase, sleep } from '../phase';
import { rssKb } from '../proc';
import { rawStreamBaseline } from './raw';
import { floorFanoutBaseline } from './uws-floor';
import type { Service } from '../service';
import type { TargetResult } from '../types';

/** Runs a phase unless the service has died, which is then reported once, with its last output. */
async function servicePhase(
  svc: Service,
  result: TargetResult,
  name: string,
  budget: Budget,
  fn: Parameters<typeof phase>[3],
): Promise<void> {
  const dead = svc.death();
  if (dead) {
    result.errors[name] = 'skipped: the service is not running';
    result.errors['service'] = dead;
    return;
  }
  await phase(result, name, budget, fn);
  const died = svc.death();
  if (died) result.errors['service'] = died;
  // The teardown of one phase (killed sessions, closing sockets) must not land in the next one.
  await sleep(500);
}

export async function benchService(svc: Service, p: Profile, result: TargetResult, budget: Budget): Promise<void> {
  result.process = { host_pid: svc.hostPid, cpu_pids: svc.cpuPids.join(','), rss_start_kb: rssKb(svc.hostPid) };
  // Memory first, on a fresh process: after the floods the heap is large and fragmented and new
  // sessions would partly reuse freed memory, understating their cost.
  await servicePhase(svc, result, 'idle_memory', budget, async (c) => {
    result.metrics.idle_memory = await serviceIdleMemory(svc, p.idleSessions, c);
  });
  await servicePhase(svc, result, 'echo_1', budget, async (c) => {
    result.metrics.echo_1 = await serviceEcho(svc, 1, echoRun(p), p.busyRateHz, c);
  });
  await servicePhase(svc, result, 'echo_loaded', budget, async (c) => {
    result.metrics.echo_loaded = await serviceEcho(svc, p.loadedSessions, echoRun(p), p.busyRateHz, c);
  });
  await servicePhase(svc, result, 'attach', budget, async (c) => {
    result.metrics.attach = await serviceAttach(svc, p.historyFrames, p.attaches, c);
  });
  for (const n of p.observers) {
    await servicePhase(svc, result, `throughput_${n}`, budget, async (c) => {
      result.metrics.throughput[String(n)] =
        n === 1
          ? await medianStream(p, () => serviceFanout(svc, 1, p.streamBytes, 60_000, c), {
              baseline: rawStreamBaseline(p),
              archives: true,
            })
          : await serviceFanout(svc, n, p.floodBytes, 60_000, c);
    });
  }
  await servicePhase(svc, result, 'fanout_big', budget, async () => {
    result.metrics.fanout_big = await medianFanout(
      p,
      (c) => serviceFanout(svc, p.bigFanout.observers, p.bigFanout.floodBytes, 120_000, c),
      floorFanoutBaseline(p),
    );
  });
  if (!svc.death()) result.process['rss_end_kb'] = rssKb(svc.hostPid);
}
