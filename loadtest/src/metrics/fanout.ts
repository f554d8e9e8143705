/**
 * Output throughput of one flooding session to N observers. The first reader is the session's
 * controller (it sends the start signal), the rest join as observers: exactly N readers.
 */
import { FloodReader } from '../flood';
import type { Cleanup } from '../phase';
import { CpuMeter, MachineMeter } from '../proc';
import { floodArgv } from '../programs';
import { attachUrl, createSession, deleteSession, mapLimit } from '../rest';
import type { Service } from '../service';
import { ReaderLoopMeter } from '../reader-loop';
import { mean, round } from '../stats';
import type { FanoutMetric } from '../types';
import { member, type BenchSocket } from '../ws-client';

export async function serviceFanout(
  svc: Service,
  observers: number,
  floodBytes: number,
  timeoutMs: number,
  cleanup: Cleanup,
): Promise<FanoutMetric> {
  const id = await createSession(svc, floodArgv(floodBytes));
  cleanup.add(() => deleteSession(svc, id));
  const url = attachUrl(svc, id);
  const sockets: BenchSocket[] = await mapLimit(Array.from({ length: observers }), 20, async (_, i) => {
    const s = await member(url, svc.token, i === 0 ? 'controller' : 'observer');
    cleanup.add(() => s.terminate());
    return s;
  });
  const readers = sockets.map((s) => {
    const r = new FloodReader();
    s.setListener((chunk) => r.feed(chunk));
    s.onScreenAfterLag = (screen) => r.screen(screen);
    // A Closed frame or a dropped socket ends this reader's wait even without the marker.
    s.onClosedFrame = () => setTimeout(() => r.abort(), 300);
    return r;
  });
  const server = new CpuMeter(svc.cpuPids, true);
  const client = new CpuMeter([process.pid]);
  const machine = new MachineMeter();
  const loop = new ReaderLoopMeter();
  const t0 = performance.now();
  sockets[0]?.write(Buffer.from('\r'));
  const timer = setTimeout(() => readers.forEach((r) => r.abort()), timeoutMs);
  await Promise.all(readers.map((r) => r.done));
  clearTimeout(timer);
  const serverCpu = server.percent();
  const clientCpu = client.percent();
  const machineCpu = machine.percent();
  const loopBusy = loop.busyPercent();
  const gcMs = loop.gcMs();
  const ends = readers.map((r) => r.endAt ?? performance.now());
  const rates = readers.map((r, i) => r.bytes / 1e6 / (((ends[i] as number) - t0) / 1000));
  const totalBytes = readers.reduce((s, r) => s + r.bytes, 0);
  const duration = Math.max(...ends) - t0;
  const incomplete = readers.filter((r) => r.endAt === undefined).length;
  if (incomplete === observers) throw new Error(`no observer saw the end of the flood within ${timeoutMs} ms`);
  return {
    observers,
    bytes_per_observer: Math.round(mean(readers.map((r) => r.bytes))),
    per_observer_mb_s: round(mean(rates), 2),
    min_observer_mb_s: round(Math.min(...rates), 2),
    total_mb_s: round(totalBytes / 1e6 / (duration / 1000), 2),
    duration_ms: round(duration, 1),
    server_cpu_pct: round(serverCpu, 1),
    client_cpu_pct: round(clientCpu, 1),
    client_loop_pct: round(loopBusy, 1),
    client_gc_ms: round(gcMs, 1),
    machine_cpu_pct: round(machineCpu, 1),
    lagged_observers: sockets.filter((s) => s.lagged > 0).length,
    incomplete_observers: incomplete,
  };
}
