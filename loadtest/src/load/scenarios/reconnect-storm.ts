/**
 * k6/reconnect-storm.ts: watch a busy session, drop, wait while it prints, come back with
 * replay_from = the last sequence seen; the first log frame after the re-join must be the next one
 * (replay-check.ts, the same verdict as the k6 script's).
 */
import { attachUrl } from '../../rest';
import { printFor } from '../print-loop';
import { replayResumed } from '../replay-check';
import type { Scenario, ScenarioContext } from '../scenario';
import { LoadSocket, delay, isFlushKeyframe, runVus } from '../socket';

/** The k6 script's pause between the drop and the re-join (~20 frames printed meanwhile). */
const GAP_MS = 1000;

interface Watched {
  last: number;
  sequences: number[];
  keyframe: boolean;
  outOfRange: boolean;
}

/** Joins and watches until the join's Keyframe and then `frames` live PW1O frames, or 10 s. */
async function watch(ctx: ScenarioContext, url: string, frames: number, replayFrom?: number): Promise<Watched> {
  const sock = await LoadSocket.open(url, ctx.ep.token);
  const w: Watched = { last: -1, sequences: [], keyframe: false, outOfRange: false };
  const seen = (seq: number): void => {
    w.sequences.push(seq);
    w.last = Math.max(w.last, seq);
  };
  let live = 0;
  // Frames still arriving between close() and the close itself are not the watch's: counted in
  // `last`, they raised the drop's last sequence after the re-join had already sent it as
  // replay_from, and a replay that resumed exactly there was scored as starting too early.
  let done = false;
  return new Promise((resolve) => {
    const finish = (): void => {
      done = true;
      clearTimeout(timer);
      sock.close();
      resolve(w);
    };
    const timer = setTimeout(finish, 10_000);
    sock.ws.once('close', finish);
    sock.onFrame = (f) => {
      if (done) return;
      if (typeof f.sequence === 'number') seen(f.sequence);
      if (f.op === 'binding_hello') sock.send('pty.join_session', { role: 'observer' }, replayFrom);
      else if (f.payload?.code === 'REPLAY_OUT_OF_RANGE') w.outOfRange = true;
      else if (isFlushKeyframe(f) && !w.keyframe) {
        w.keyframe = true;
        if (replayFrom !== undefined) {
          ctx.rec.trend('ptyws_rejoin_keyframe_ms', performance.now() - sock.openedAt);
          ctx.rec.sampled('ptyws_rejoin_keyframe_ms');
        }
      }
    };
    sock.onOutput = (_payload, seq) => {
      if (done) return;
      seen(seq);
      if (w.keyframe && ++live >= frames) finish();
    };
  });
}

export const reconnectStorm: Scenario = async (ctx) => {
  // Prints for the run and a minute more, then exits (as the k6 script's session).
  const runS = (ctx.deadline - performance.now()) / 1000;
  const url = attachUrl(ctx.ep, await ctx.createSession(['/bin/sh', '-c', printFor('date', 0.05, runS + 60)]));
  // The k6 stages ramp 0 → N over the first third (15 s of 45 s).
  const rampMs = (ctx.deadline - performance.now()) / 3;
  await runVus(
    ctx.connections,
    ctx.deadline,
    async () => {
      const first = await watch(ctx, url, 20);
      if (!ctx.rec.check(first.keyframe && first.last > 0)) return; // saw output before the drop
      await delay(GAP_MS);
      const second = await watch(ctx, url, 5, first.last);
      ctx.rec.rate('ptyws_replay_ok', replayResumed({ lastSeen: first.last, ...second }));
      ctx.rec.sampled('ptyws_replay_ok');
    },
    rampMs,
  );
};
