/**
 * k6/attach-storm.ts: VUs join one session with ~1000 lines of history, timing open → flush
 * Keyframe. Like the k6 stages (0 → N over 20 s, N for 20 s) the VUs ramp up over the first half;
 * like the script, each VU attaches once a second (PACE_MS) at most.
 */
import { attachUrl } from '../../rest';
import type { Scenario } from '../scenario';
import { LoadSocket, delay, isFlushKeyframe, runVus } from '../socket';

/** The k6 script's PACE_S default: one attach per VU per second. */
const PACE_MS = 1000;

export const attachStorm: Scenario = async (ctx) => {
  const sessionId = await ctx.createSession(['/bin/sh', '-c', 'seq 1 1000; exec cat']);
  const url = attachUrl(ctx.ep, sessionId);
  const rampMs = (ctx.deadline - performance.now()) / 2;
  await runVus(
    ctx.connections,
    ctx.deadline,
    async () => {
      const started = performance.now();
      let sock: LoadSocket;
      try {
        sock = await LoadSocket.open(url, ctx.ep.token);
      } catch (err) {
        ctx.rec.check(false); // upgrade 101
        await delay(PACE_MS - (performance.now() - started));
        throw err;
      }
      ctx.rec.check(true);
      ctx.rec.trend('ws_connecting', sock.connectMs);
      ctx.rec.sampled('ws_connecting');
      sock.onFrame = (f) => {
        if (f.op === 'binding_hello') sock.send('pty.join_session', { role: 'observer' });
      };
      const got = await sock.until(isFlushKeyframe, 10_000);
      if (got) {
        ctx.rec.trend('ptyws_attach_keyframe_ms', performance.now() - sock.openedAt);
        ctx.rec.sampled('ptyws_attach_keyframe_ms');
      }
      ctx.rec.check(got); // join flush ended with a Keyframe
      sock.close();
      await delay(PACE_MS - (performance.now() - started));
    },
    rampMs,
  );
};
