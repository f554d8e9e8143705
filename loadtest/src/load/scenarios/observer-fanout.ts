/** k6/observer-fanout.ts: one session prints continuously; observers count PW1O bytes and lag notices. */
import { attachUrl } from '../../rest';
import { printFor } from '../print-loop';
import type { Scenario } from '../scenario';
import { LoadSocket, delay, runVus } from '../socket';

export const observerFanout: Scenario = async (ctx) => {
  // Prints for the run and 30 s more (the last watches finish), then exits (as the k6 script's).
  const runS = (ctx.deadline - performance.now()) / 1000;
  const loop = printFor('head -c 3000 /dev/urandom | base64', 0.1, runS + 30);
  const url = attachUrl(ctx.ep, await ctx.createSession(['/bin/sh', '-c', loop]));
  ctx.rec.declare('ptyws_lagged', 'counter');
  ctx.rec.declare('ptyws_fanout_bytes', 'counter');
  await runVus(ctx.connections, ctx.deadline, async () => {
    let sock: LoadSocket;
    try {
      sock = await LoadSocket.open(url, ctx.ep.token);
    } catch (err) {
      ctx.rec.check(false);
      throw err;
    }
    ctx.rec.check(true);
    sock.onFrame = (f) => {
      if (f.op === 'binding_hello') sock.send('pty.join_session', { role: 'observer' });
      if (f.payload?.code === 'PTY_OUTPUT_LAGGED') ctx.rec.count('ptyws_lagged');
    };
    let got = 0;
    sock.onOutput = (payload) => {
      ctx.rec.count('ptyws_fanout_bytes', payload.length);
      got += payload.length;
    };
    // Each connection watches for up to 30 s (a k6 iteration), then reconnects.
    const until = Math.min(ctx.deadline, performance.now() + 30_000);
    while (performance.now() < until && !sock.closed) await delay(100);
    sock.close();
    if (ctx.rec.check(got > 0)) ctx.rec.sampled('ptyws_lagged'); // received output: a watch that counts
  });
};
