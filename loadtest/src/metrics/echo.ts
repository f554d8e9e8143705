/** Keystroke echo latency through the service: PW1I in, PW1O out, on the binary subprotocol. */
import { echoUnderLoad, type EchoRun } from '../channel';
import type { Cleanup } from '../phase';
import { ECHO_ARGV } from '../programs';
import { SessionSet, attachUrl, mapLimit } from '../rest';
import type { Service } from '../service';
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
    return s;
  });
  return echoUnderLoad(sockets, run, busyRateHz, svc.cpuPids, cleanup);
}
