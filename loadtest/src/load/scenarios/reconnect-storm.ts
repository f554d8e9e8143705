/**
 * k6/reconnect-storm.ts: watch a busy session, drop, come back with replay_from = the last
 * sequence seen; the replay must resume right after it.
 */
import { attachUrl } from '../../rest';
import type { Scenario, ScenarioContext } from '../scenario';
import { LoadSocket, isFlushKeyframe, runVus } from '../socket';

/** Watches until `frames` PW1O frames arrived; the last sequence seen and the first one received. */
async function watch(
  ctx: ScenarioContext,
  url: string,
  frames: number,
  replayFrom?: number,
): Promise<{ last: number; firstReplayed: number; outOfRange: boolean }> {
  const sock = await LoadSocket.open(url, ctx.ep.token);
  let last = -1;
  let firstReplayed = -1;
  let count = 0;
  let joined = false;
  let outOfRange = false;
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      sock.close();
      resolve({ last, firstReplayed, outOfRange });
    };
    const timer = setTimeout(finish, 10_000);
    sock.ws.once('close', finish);
    sock.onFrame = (f) => {
      if (f.op === 'binding_hello') sock.send('pty.join_session', { role: 'observer' }, replayFrom);
      else if (f.payload?.code === 'REPLAY_OUT_OF_RANGE') outOfRange = true;
      else if (isFlushKeyframe(f) && !joined) {
        joined = true;
        if (replayFrom !== undefined) ctx.rec.trend('ptyws_rejoin_keyframe_ms', performance.now() - sock.openedAt);
      }
    };
    sock.onOutput = (_payload, seq) => {
      if (firstReplayed < 0) firstReplayed = seq;
      last = seq;
      if (++count >= frames) finish();
    };
  });
}

export const reconnectStorm: Scenario = async (ctx) => {
  const url = attachUrl(ctx.ep, await ctx.createSession(['/bin/sh', '-c', 'while :; do date; sleep 0.05; done']));
  // The k6 stages ramp 0 → N over the first third (15 s of 45 s).
  const rampMs = (ctx.deadline - performance.now()) / 3;
  await runVus(
    ctx.connections,
    ctx.deadline,
    async () => {
      const first = await watch(ctx, url, 20);
      if (!ctx.rec.check(first.last > 0)) return; // saw output before the drop
      const second = await watch(ctx, url, 5, first.last);
      // Log frames other than Output (membership, keyframes) may sit between: the next PW1O is > last.
      ctx.rec.rate('ptyws_replay_ok', !second.outOfRange && second.firstReplayed > first.last);
    },
    rampMs,
  );
};
