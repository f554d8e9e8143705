/**
 * Attach storm: `attaches` WebSockets, `concurrency` at a time, each opened, greeted
 * (binding_hello), joined as observer until the join's Keyframe, and dropped; against the raw
 * uWebSockets.js upgrade floor (uws-floor-child: upgrade and open, nothing else) from the same run.
 */
import type WebSocket from 'ws';
import { log, type Cleanup } from '../phase';
import { IDLE_ARGV } from '../programs';
import { openRawSocket } from '../raw-socket';
import { SessionSet, attachUrl, mapLimit } from '../rest';
import type { Service } from '../service';
import { round, summarize, type LatencySummary } from '../stats';
import { startFloor } from '../targets/uws-floor';
import { BenchSocket } from '../ws-client';

export interface StormMetric extends LatencySummary {
  attaches: number;
  concurrency: number;
  per_s: number;
  failures: number;
}

export interface AttachStormMetric {
  service: StormMetric;
  uws_floor: StormMetric;
  /** The service's rate over the floor's. */
  ratio: number;
}

async function storm(attaches: number, concurrency: number, one: () => Promise<void>): Promise<StormMetric> {
  const times: number[] = [];
  let failures = 0;
  const t0 = performance.now();
  await mapLimit(Array.from({ length: attaches }), concurrency, async () => {
    const s = performance.now();
    try {
      await one();
      times.push(performance.now() - s);
    } catch {
      failures++;
    }
  });
  const wallS = (performance.now() - t0) / 1000;
  return { attaches, concurrency, per_s: round(times.length / wallS, 1), failures, ...summarize(times) };
}

export async function attachStorm(
  svc: Service,
  attaches: number,
  concurrency: number,
  cleanup: Cleanup,
): Promise<AttachStormMetric> {
  const set = new SessionSet(svc);
  cleanup.add(() => set.deleteAll());
  const url = attachUrl(svc, await set.create(IDLE_ARGV));
  const service = await storm(attaches, concurrency, async () => {
    const s = await BenchSocket.open(url, svc.token, true);
    try {
      await s.hello();
      await s.join('observer');
    } finally {
      s.terminate();
    }
  });
  log(`  attach storm: ${service.per_s}/s (p99 ${service.p99_ms} ms, ${service.failures} failed)`);
  const floor = await startFloor(1, cleanup);
  const uwsFloor = await storm(attaches, concurrency, async () => {
    const ws: WebSocket = await openRawSocket(floor.url);
    ws.terminate();
  });
  log(`  uWS upgrade floor: ${uwsFloor.per_s}/s (p99 ${uwsFloor.p99_ms} ms)`);
  return { service, uws_floor: uwsFloor, ratio: round(service.per_s / uwsFloor.per_s, 3) };
}
