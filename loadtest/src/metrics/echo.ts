/** Keystroke echo latency through the service: PW1I in, PW1O out, on the binary subprotocol. */
import { awaitEchoReady, sampleEcho, startTyping, type EchoRun } from '../channel';
import type { Cleanup } from '../phase';
import { CpuMeter } from '../proc';
import { ECHO_ARGV } from '../programs';
import { SessionSet, attachUrl, mapLimit } from '../rest';
import type { Service } from '../service';
import { round, summarize } from '../stats';
import type { EchoMetric } from '../types';
import { member } from '../ws-client';

export async function serviceEcho(
  svc: Service,
  sessions: number,
  run: EchoRun,
  busyRateHz: number,
  cleanup: Cleanup,
): Promise<EchoMetric> {
  const set = new SessionSet(svc);
  cleanup.add(() => set.deleteAll());
  const sockets = await mapLimit(Array.from({ length: sessions }), 10, async () => {
    const id = await set.create(ECHO_ARGV);
    const s = await member(attachUrl(svc, id), svc.token, 'controller');
    cleanup.add(() => s.terminate());
    await awaitEchoReady(s);
    return s;
  });
  const [measured, ...busy] = sockets;
  if (!measured) throw new Error('no session');
  const stop = startTyping(busy, busyRateHz);
  cleanup.add(stop);
  // Let the background typing reach its steady rate before the first sample.
  if (busy.length) await new Promise((r) => setTimeout(r, 300));
  const cpu = new CpuMeter(svc.cpuPids);
  const latencies = await sampleEcho(measured, run);
  const serverCpu = round(cpu.percent(), 1);
  stop();
  return { sessions, busy_rate_hz: busy.length ? busyRateHz : 0, server_cpu_pct: serverCpu, ...summarize(latencies) };
}
