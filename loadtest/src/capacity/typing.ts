/**
 * Sessions typing at once: each level opens that many echo sessions (`stty raw -echo; exec cat`),
 * one controller socket each, and every one types closed-loop at `rateHz` (a keystroke, its echo,
 * a pause) for `durationMs`; the echo latencies of all of them together.
 */
import { awaitEchoReady, roundTrip } from '../channel';
import { log, sleep } from '../phase';
import { CpuMeter } from '../proc';
import { ECHO_ARGV } from '../programs';
import { SessionSet, attachUrl, mapLimit } from '../rest';
import type { Service } from '../service';
import { round, summarize, type LatencySummary } from '../stats';
import { member, type BenchSocket } from '../ws-client';

export interface TypingLevel extends LatencySummary {
  sessions: number;
  rate_hz: number;
  timeouts: number;
  server_cpu_pct: number;
}

const KEYS = 'abcdefghijklmnopqrstuvwxyz';

export async function typingAtOnce(
  svc: Service,
  levels: number[],
  rateHz: number,
  durationMs: number,
): Promise<TypingLevel[]> {
  const out: TypingLevel[] = [];
  for (const level of levels) {
    const set = new SessionSet(svc);
    const sockets: BenchSocket[] = [];
    try {
      await mapLimit(Array.from({ length: level }), 8, async () => {
        const s = await member(attachUrl(svc, await set.create(ECHO_ARGV)), svc.token, 'controller');
        sockets.push(s);
        await awaitEchoReady(s);
      });
      const samples: number[] = [];
      let timeouts = 0;
      const cpu = new CpuMeter(svc.cpuPids, true);
      const end = performance.now() + durationMs;
      const period = 1000 / rateHz;
      await Promise.all(
        sockets.map(async (s, i) => {
          // Staggered starts: the typists do not all press a key in the same millisecond.
          await sleep((i / sockets.length) * period);
          for (let k = 0; performance.now() < end; k++) {
            const t0 = performance.now();
            try {
              samples.push(await roundTrip(s, KEYS[k % KEYS.length] as string, 5000));
            } catch {
              timeouts++;
            }
            await sleep(Math.max(0, period - (performance.now() - t0)));
          }
        }),
      );
      out.push({
        sessions: level,
        rate_hz: rateHz,
        ...summarize(samples),
        timeouts,
        server_cpu_pct: round(cpu.percent(), 1),
      });
      log(`  typing ${level}: echo p99 ${out[out.length - 1]?.p99_ms} ms`);
    } finally {
      sockets.forEach((s) => s.terminate());
      await set.deleteAll();
    }
  }
  return out;
}
