/** Keystroke echo latency through the service: PW1I in, PW1O out, on the binary subprotocol. */
import { echoUnderLoad, type EchoRun, type EchoSession } from '../channel';
import type { Cleanup } from '../phase';
import { ECHO_ARGV } from '../programs';
import { SessionSet, attachUrl } from '../rest';
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
  const open = async (): Promise<EchoSession> => {
    const id = await set.create(ECHO_ARGV);
    const s = await member(attachUrl(svc, id), svc.token, 'controller');
    cleanup.add(() => s.terminate());
    return {
      channel: s,
      close: async () => {
        s.terminate();
        await set.delete(id);
      },
    };
  };
  return echoUnderLoad(open, sessions, run, busyRateHz, svc.cpuPids, cleanup);
}
